/**
 * Every paper, book, post and library the course cites, once. Chapters keep their numbered <References> lists; the
 * compiler (lib/content/plugins.ts) matches each entry to a record here by its arXiv id, URL or title, links it to
 * /references/#<id>, and fails the build when an entry matches nothing. /references/ lists each record with the
 * chapters that cite it.
 */
export interface Reference {
  /** Anchor on /references/ (#id). */
  id: string;
  authors?: string;
  year?: number;
  title: string;
  /** Venue, edition or what the source covers. */
  note?: string;
  /** arXiv identifier; the link is https://arxiv.org/abs/<arxiv>. */
  arxiv?: string;
  /** The link when there is no arXiv id. */
  url?: string;
  /** Further links a chapter may cite for the same work (a second file of the same library release). */
  also?: readonly string[];
}

export const references: readonly Reference[] = [
  { id: 'zhang2025landscape', authors: 'Zhang, G., Geng, H., Yu, X., et al.', year: 2025, title: 'The Landscape of Agentic Reinforcement Learning for LLMs: A Survey', arxiv: '2509.02547' },
  { id: 'sutton2018reinforcement', authors: 'Sutton, R. S., and Barto, A. G.', year: 2018, title: 'Reinforcement Learning: An Introduction', note: '2nd edition, MIT Press', url: 'http://incompleteideas.net/book/the-book-2nd.html' },
  { id: 'ouyang2022training', authors: 'Ouyang, L., Wu, J., Jiang, X., et al.', year: 2022, title: 'Training language models to follow instructions with human feedback', arxiv: '2203.02155' },
  { id: 'rafailov2023direct', authors: 'Rafailov, R., Sharma, A., Mitchell, E., et al.', year: 2023, title: 'Direct Preference Optimization: Your Language Model is Secretly a Reward Model', arxiv: '2305.18290' },
  { id: 'yao2022react', authors: 'Yao, S., Zhao, J., Yu, D., et al.', year: 2022, title: 'ReAct: Synergizing Reasoning and Acting in Language Models', arxiv: '2210.03629' },
  { id: 'schick2023toolformer', authors: 'Schick, T., Dwivedi-Yu, J., Dessì, R., et al.', year: 2023, title: 'Toolformer: Language Models Can Teach Themselves to Use Tools', arxiv: '2302.04761' },
  { id: 'deepseek2025r1', authors: 'DeepSeek-AI', year: 2025, title: 'DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning', arxiv: '2501.12948' },
  { id: 'shao2024deepseekmath', authors: 'Shao, Z., Wang, P., Zhu, Q., et al.', year: 2024, title: 'DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models', arxiv: '2402.03300' },
  { id: 'schulman2017proximal', authors: 'Schulman, J., Wolski, F., Dhariwal, P., Radford, A., and Klimov, O.', year: 2017, title: 'Proximal Policy Optimization Algorithms', arxiv: '1707.06347' },
  { id: 'schulman2015high', authors: 'Schulman, J., Moritz, P., Levine, S., Jordan, M., and Abbeel, P.', year: 2015, title: 'High-Dimensional Continuous Control Using Generalized Advantage Estimation', arxiv: '1506.02438' },
  { id: 'hu2021lora', authors: 'Hu, E. J., Shen, Y., Wallis, P., Allen-Zhu, Z., Li, Y., Wang, S., Wang, L., and Chen, W.', year: 2021, title: 'LoRA: Low-Rank Adaptation of Large Language Models', arxiv: '2106.09685' },
  { id: 'dettmers2023qlora', authors: 'Dettmers, T., Pagnoni, A., Holtzman, A., and Zettlemoyer, L.', year: 2023, title: 'QLoRA: Efficient Finetuning of Quantized LLMs', arxiv: '2305.14314' },
  { id: 'rajbhandari2019zero', authors: 'Rajbhandari, S., Rasley, J., Ruwase, O., and He, Y.', year: 2019, title: 'ZeRO: Memory Optimizations Toward Training Trillion Parameter Models', arxiv: '1910.02054' },
  { id: 'trl-sft', authors: 'Hugging Face', title: 'TRL v1.13.0: SFTConfig, SFTTrainer and the chat-template utilities', note: 'trl/trainer/sft_config.py, sft_trainer.py, trl/chat_template_utils.py at tag v1.13.0', url: 'https://github.com/huggingface/trl/tree/v1.13.0' },
  { id: 'peft-lora-config', authors: 'Hugging Face', title: 'PEFT v0.20.0: LoraConfig', note: 'src/peft/tuners/lora/config.py', url: 'https://github.com/huggingface/peft' },
  { id: 'aghajanyan2020intrinsic', authors: 'Aghajanyan, A., Zettlemoyer, L., and Gupta, S.', year: 2020, title: 'Intrinsic Dimensionality Explains the Effectiveness of Language Model Fine-Tuning', arxiv: '2012.13255' },
  { id: 'li2018measuring', authors: 'Li, C., Farkhoor, H., Liu, R., and Yosinski, J.', year: 2018, title: 'Measuring the Intrinsic Dimension of Objective Landscapes', arxiv: '1804.08838' },
  { id: 'biderman2024lora', authors: 'Biderman, D., Portes, J., Ortiz, J. J. G., et al.', year: 2024, title: 'LoRA Learns Less and Forgets Less', arxiv: '2405.09673' },
  { id: 'kalajdzievski2023rank', authors: 'Kalajdzievski, D.', year: 2023, title: 'A Rank Stabilization Scaling Factor for Fine-Tuning with LoRA', arxiv: '2312.03732' },
  { id: 'schulman2025lora', authors: 'Schulman, J., and Thinking Machines Lab', year: 2025, title: 'LoRA Without Regret', url: 'https://thinkingmachines.ai/blog/lora/' },
  { id: 'mccloskey1989catastrophic', authors: 'McCloskey, M., and Cohen, N. J.', year: 1989, title: 'Catastrophic Interference in Connectionist Networks: The Sequential Learning Problem', note: 'Psychology of Learning and Motivation, 24, 109–165', url: 'https://doi.org/10.1016/S0079-7421(08)60536-8' },
  { id: 'luo2023empirical', authors: 'Luo, Y., Yang, Z., Meng, F., Li, Y., Zhou, J., and Zhang, Y.', year: 2023, title: 'An Empirical Study of Catastrophic Forgetting in Large Language Models During Continual Fine-tuning', arxiv: '2308.08747' },
  { id: 'shuttleworth2024lora', authors: 'Shuttleworth, R., Andreas, J., Torralba, A., and Sharma, P.', year: 2024, title: 'LoRA vs Full Fine-tuning: An Illusion of Equivalence', arxiv: '2410.21228' },
  { id: 'kirkpatrick2017overcoming', authors: 'Kirkpatrick, J., Pascanu, R., Rabinowitz, N., et al.', year: 2017, title: 'Overcoming catastrophic forgetting in neural networks', arxiv: '1612.00796' },
  { id: 'shoeybi2019megatron', authors: 'Shoeybi, M., Patwary, M., Puri, R., et al.', year: 2019, title: 'Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism', arxiv: '1909.08053' },
  { id: 'huang2018gpipe', authors: 'Huang, Y., Cheng, Y., Bapna, A., et al.', year: 2018, title: 'GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism', arxiv: '1811.06965' },
  { id: 'korthikanti2022reducing', authors: 'Korthikanti, V., Casper, J., Lym, S., et al.', year: 2022, title: 'Reducing Activation Recomputation in Large Transformer Models', arxiv: '2205.05198' },
  { id: 'li2020pytorch', authors: 'Li, S., Zhao, Y., Varma, R., et al.', year: 2020, title: 'PyTorch Distributed: Experiences on Accelerating Data Parallel Training', arxiv: '2006.15704' },
  { id: 'patarasuk2009bandwidth', authors: 'Patarasuk, P., and Yuan, X.', year: 2009, title: 'Bandwidth optimal all-reduce algorithms for clusters of workstations', note: 'Journal of Parallel and Distributed Computing 69(2), 117–124', url: 'https://doi.org/10.1016/j.jpdc.2008.09.002' },
  { id: 'sergeev2018horovod', authors: 'Sergeev, A., and Del Balso, M.', year: 2018, title: 'Horovod: fast and easy distributed deep learning in TensorFlow', arxiv: '1802.05799' },
  { id: 'zhao2023pytorch', authors: 'Zhao, Y., Gu, A., Varma, R., et al.', year: 2023, title: 'PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel', arxiv: '2304.11277' },
  { id: 'nvidia-h100-datasheet', authors: 'NVIDIA', title: 'NVIDIA H100 Tensor Core GPU', note: 'datasheet, H100 SXM: NVLink 900 GB/s, PCIe Gen5 128 GB/s, BF16 Tensor Core 1,979 TFLOPS shown with sparsity (half without)', url: 'https://www.nvidia.com/en-us/data-center/h100/' },
  { id: 'nvidia-connectx7', authors: 'NVIDIA', title: 'ConnectX-7 InfiniBand/Ethernet adapter cards user manual: Introduction', note: 'single-port NDR 400 Gb/s', url: 'https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction' },
  { id: 'kaplan2020scaling', authors: 'Kaplan, J., McCandlish, S., Henighan, T., et al.', year: 2020, title: 'Scaling Laws for Neural Language Models', arxiv: '2001.08361' },
  { id: 'qi2024zero', authors: 'Qi, P., Wan, X., Huang, G., and Lin, M.', year: 2024, title: 'Zero Bubble Pipeline Parallelism', note: 'ICLR 2024', arxiv: '2401.10241' },
  { id: 'deepseek2024v3', authors: 'DeepSeek-AI', year: 2024, title: 'DeepSeek-V3 Technical Report', arxiv: '2412.19437' },
  { id: 'nvidia-hopper-architecture', authors: 'NVIDIA', title: 'NVIDIA Hopper Architecture', note: 'fourth-generation NVLink: 900 GB/s bidirectional per GPU', url: 'https://www.nvidia.com/en-us/technologies/hopper-architecture/' },
  { id: 'lepikhin2020gshard', authors: 'Lepikhin, D., Lee, H., Xu, Y., et al.', year: 2020, title: 'GShard: Scaling Giant Models with Conditional Computation and Automatic Sharding', arxiv: '2006.16668' },
  { id: 'narayanan2020memory', authors: 'Narayanan, D., Phanishayee, A., Shi, K., Chen, X., and Zaharia, M.', year: 2020, title: 'Memory-Efficient Pipeline-Parallel DNN Training', arxiv: '2006.09503' },
  { id: 'narayanan2021efficient', authors: 'Narayanan, D., Shoeybi, M., Casper, J., et al.', year: 2021, title: 'Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM', arxiv: '2104.04473' },
  { id: 'liu2023ring', authors: 'Liu, H., Zaharia, M., and Abbeel, P.', year: 2023, title: 'Ring Attention with Blockwise Transformers for Near-Infinite Context', arxiv: '2310.01889' },
  { id: 'jacobs2023deepspeed', authors: 'Jacobs, S. A., Tanaka, M., Zhang, C., et al.', year: 2023, title: 'DeepSpeed Ulysses: System Optimizations for Enabling Training of Extreme Long Sequence Transformer Models', arxiv: '2309.14509' },
  { id: 'meta2024llama3', authors: 'Llama Team, AI @ Meta', year: 2024, title: 'The Llama 3 Herd of Models', arxiv: '2407.21783' },
  { id: 'dao2022flashattention', authors: 'Dao, T., Fu, D. Y., Ermon, S., Rudra, A., and Ré, C.', year: 2022, title: 'FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness', arxiv: '2205.14135' },
  { id: 'chen2016training', authors: 'Chen, T., Xu, B., Zhang, C., and Guestrin, C.', year: 2016, title: 'Training Deep Nets with Sublinear Memory Cost', arxiv: '1604.06174' },
  { id: 'kwon2023efficient', authors: 'Kwon, W., Li, Z., Zhuang, S., et al.', year: 2023, title: 'Efficient Memory Management for Large Language Model Serving with PagedAttention', arxiv: '2309.06180' },
  { id: 'sheng2024hybridflow', authors: 'Sheng, G., Zhang, C., Ye, Z., et al.', year: 2024, title: 'HybridFlow: A Flexible and Efficient RLHF Framework', arxiv: '2409.19256' },
  { id: 'hu2024openrlhf', authors: 'Hu, J., Wu, X., Wang, W., et al.', year: 2024, title: 'OpenRLHF: An Easy-to-use, Scalable and High-performance RLHF Framework', arxiv: '2405.11143' },
  { id: 'noukhovitch2024asynchronous', authors: 'Noukhovitch, M., Huang, S., Xhonneux, S., et al.', year: 2024, title: 'Asynchronous RLHF: Faster and More Efficient Off-Policy RL for Language Models', arxiv: '2410.18252' },
  { id: 'williams1992simple', authors: 'Williams, R. J.', year: 1992, title: 'Simple statistical gradient-following algorithms for connectionist reinforcement learning', note: 'Machine Learning 8, 229–256', url: 'https://doi.org/10.1007/BF00992696' },
  { id: 'schulman2015trust', authors: 'Schulman, J., Levine, S., Moritz, P., Jordan, M., and Abbeel, P.', year: 2015, title: 'Trust Region Policy Optimization', arxiv: '1502.05477' },
  { id: 'huang2022ppo-details', authors: 'Huang, S., Dossa, R. F. J., Raffin, A., Kanervisto, A., and Wang, W.', year: 2022, title: 'The 37 Implementation Details of Proximal Policy Optimization', note: 'ICLR Blog Track', url: 'https://iclr-blog-track.github.io/2022/03/25/ppo-implementation-details/' },
  { id: 'zheng2023secrets', authors: 'Zheng, R., Dou, S., Gao, S., et al.', year: 2023, title: 'Secrets of RLHF in Large Language Models Part I: PPO', arxiv: '2307.04964' },
  { id: 'trl-ppo', authors: 'Hugging Face', title: 'TRL v1.9.0: PPO Trainer', note: 'documentation, and trl/experimental/ppo/ppo_config.py, ppo_trainer.py at tag v1.9.0; v1.13.0 no longer ships them', url: 'https://github.com/huggingface/trl/blob/v1.9.0/docs/source/ppo_trainer.md' },
  { id: 'ziegler2019fine', authors: 'Ziegler, D. M., Stiennon, N., Wu, J., Brown, T. B., Radford, A., Amodei, D., Christiano, P., and Irving, G.', year: 2019, title: 'Fine-Tuning Language Models from Human Preferences', arxiv: '1909.08593' },
  { id: 'kool2019buy', authors: 'Kool, W., van Hoof, H., and Welling, M.', year: 2019, title: 'Buy 4 REINFORCE Samples, Get a Baseline for Free!', note: 'ICLR 2019 workshop Deep Reinforcement Learning Meets Structured Prediction', url: 'https://wouterkool.github.io/publication/buy-4-samples-free-baseline/' },
  { id: 'ahmadian2024back', authors: 'Ahmadian, A., Cremer, C., Gallé, M., et al.', year: 2024, title: 'Back to Basics: Revisiting REINFORCE Style Optimization for Learning from Human Feedback in LLMs', arxiv: '2402.14740' },
  { id: 'tang2025pitfalls', authors: 'Tang, Y., and Munos, R.', year: 2025, title: 'On a few pitfalls in KL divergence gradient estimation for RL', arxiv: '2506.09477' },
  { id: 'schulman2020approximating', authors: 'Schulman, J.', year: 2020, title: 'Approximating KL Divergence', url: 'http://joschu.net/blog/kl-approx.html' },
  { id: 'bradley1952rank', authors: 'Bradley, R. A., and Terry, M. E.', year: 1952, title: 'Rank Analysis of Incomplete Block Designs: I. The Method of Paired Comparisons', note: 'Biometrika, 39(3/4), 324–345', url: 'https://doi.org/10.2307/2334029' },
  { id: 'trl-dpo', authors: 'Hugging Face', title: 'TRL v1.13.0: DPO Trainer', note: 'documentation, and trl/trainer/dpo_config.py, dpo_trainer.py at tag v1.13.0', url: 'https://github.com/huggingface/trl/blob/v1.13.0/docs/source/dpo_trainer.md' },
  { id: 'mitchell2023note', authors: 'Mitchell, E.', year: 2023, title: 'A note on DPO with noisy preferences and relationship to IPO', url: 'https://ericmitchell.ai/cdpo.pdf' },
  { id: 'chowdhury2024provably', authors: 'Chowdhury, S. R., Kini, A., and Natarajan, N.', year: 2024, title: 'Provably Robust DPO: Aligning Language Models with Noisy Feedback', arxiv: '2403.00409' },
  { id: 'azar2023general', authors: 'Azar, M. G., Rowland, M., Piot, B., Guo, D., Calandriello, D., Valko, M., and Munos, R.', year: 2023, title: 'A General Theoretical Paradigm to Understand Learning from Human Preferences', arxiv: '2310.12036' },
  { id: 'zhao2023slic', authors: 'Zhao, Y., Joshi, R., Liu, T., Khalman, M., Saleh, M., and Liu, P. J.', year: 2023, title: 'SLiC-HF: Sequence Likelihood Calibration with Human Feedback', arxiv: '2305.10425' },
  { id: 'xu2024dpo', authors: 'Xu, S., Fu, W., Gao, J., et al.', year: 2024, title: 'Is DPO Superior to PPO for LLM Alignment? A Comprehensive Study', arxiv: '2404.10719' },
  { id: 'tajwar2024preference', authors: 'Tajwar, F., Singh, A., Sharma, A., et al.', year: 2024, title: 'Preference Fine-Tuning of LLMs Should Leverage Suboptimal, On-Policy Data', arxiv: '2404.14367' },
  { id: 'pang2024iterative', authors: 'Pang, R. Y., Yuan, W., Cho, K., He, H., Sukhbaatar, S., and Weston, J.', year: 2024, title: 'Iterative Reasoning Preference Optimization', arxiv: '2404.19733' },
  { id: 'pal2024smaug', authors: 'Pal, A., Karkhanis, D., Dooley, S., Roberts, M., Naidu, S., and White, C.', year: 2024, title: 'Smaug: Fixing Failure Modes of Preference Optimisation with DPO-Positive', arxiv: '2402.13228' },
  { id: 'rafailov2024scaling', authors: 'Rafailov, R., Chittepu, Y., Park, R., et al.', year: 2024, title: 'Scaling Laws for Reward Model Overoptimization in Direct Alignment Algorithms', arxiv: '2406.02900' },
  { id: 'rafailov2024q', authors: 'Rafailov, R., Hejna, J., Park, R., and Finn, C.', year: 2024, title: 'From r to Q*: Your Language Model is Secretly a Q-Function', arxiv: '2404.12358' },
  { id: 'razin2024unintentional', authors: 'Razin, N., Malladi, S., Bhaskar, A., Chen, D., Arora, S., and Hanin, B.', year: 2024, title: 'Unintentional Unalignment: Likelihood Displacement in Direct Preference Optimization', arxiv: '2410.08847' },
  { id: 'ethayarajh2024kto', authors: 'Ethayarajh, K., Xu, W., Muennighoff, N., Jurafsky, D., and Kiela, D.', year: 2024, title: 'KTO: Model Alignment as Prospect Theoretic Optimization', arxiv: '2402.01306' },
  { id: 'hong2024orpo', authors: 'Hong, J., Lee, N., and Thorne, J.', year: 2024, title: 'ORPO: Monolithic Preference Optimization without Reference Model', arxiv: '2403.07691' },
  { id: 'meng2024simpo', authors: 'Meng, Y., Xia, M., and Chen, D.', year: 2024, title: 'SimPO: Simple Preference Optimization with a Reference-Free Reward', arxiv: '2405.14734' },
  { id: 'park2024disentangling', authors: 'Park, R., Rafailov, R., Ermon, S., and Finn, C.', year: 2024, title: 'Disentangling Length from Quality in Direct Preference Optimization', arxiv: '2403.19159' },
  { id: 'trl-grpo', authors: 'Hugging Face', title: 'TRL v1.13.0: GRPO Trainer', note: 'documentation, and trl/trainer/grpo_config.py, grpo_trainer.py, sft_config.py at tag v1.13.0', url: 'https://github.com/huggingface/trl/blob/v1.13.0/docs/source/grpo_trainer.md' },
  { id: 'yu2025dapo', authors: 'Yu, Q., Zhang, Z., Zhu, R., et al.', year: 2025, title: 'DAPO: An Open-Source LLM Reinforcement Learning System at Scale', arxiv: '2503.14476' },
  { id: 'liu2025understanding', authors: 'Liu, Z., Chen, C., Li, W., et al.', year: 2025, title: 'Understanding R1-Zero-Like Training: A Critical Perspective', arxiv: '2503.20783' },
  { id: 'zheng2025group', authors: 'Zheng, C., Liu, S., Li, M., et al.', year: 2025, title: 'Group Sequence Policy Optimization', arxiv: '2507.18071' },
  { id: 'trl-paper-index', authors: 'Hugging Face', title: 'TRL v1.9.0 documentation: Paper Index', note: 'including the GSPO configuration', url: 'https://github.com/huggingface/trl/blob/v1.9.0/docs/source/paper_index.md' },
  { id: 'cobbe2021training', authors: 'Cobbe, K., Kosaraju, V., Bavarian, M., et al.', year: 2021, title: 'Training Verifiers to Solve Math Word Problems', arxiv: '2110.14168' },
  { id: 'amodei2016concrete', authors: 'Amodei, D., Olah, C., Steinhardt, J., Christiano, P., Schulman, J., and Mané, D.', year: 2016, title: 'Concrete Problems in AI Safety', arxiv: '1606.06565' },
  { id: 'skalse2022defining', authors: 'Skalse, J., Howe, N. H. R., Krasheninnikov, D., and Krueger, D.', year: 2022, title: 'Defining and Characterizing Reward Hacking', arxiv: '2209.13085' },
  { id: 'qwen2024qwen25', authors: 'Qwen Team', year: 2024, title: 'Qwen2.5 Technical Report', arxiv: '2412.15115' },
  { id: 'chen2021evaluating', authors: 'Chen, M., Tworek, J., Jun, H., et al.', year: 2021, title: 'Evaluating Large Language Models Trained on Code', arxiv: '2107.03374' },
  { id: 'wang2022self', authors: 'Wang, X., Wei, J., Schuurmans, D., et al.', year: 2022, title: 'Self-Consistency Improves Chain of Thought Reasoning in Language Models', arxiv: '2203.11171' },
  { id: 'zhang2024careful', authors: 'Zhang, H., Da, J., Lee, D., et al.', year: 2024, title: 'A Careful Examination of Large Language Model Performance on Grade School Arithmetic', arxiv: '2405.00332' },
  { id: 'henderson2018deep', authors: 'Henderson, P., Islam, R., Bachman, P., et al.', year: 2018, title: 'Deep Reinforcement Learning that Matters', note: 'AAAI 2018', arxiv: '1709.06560' },
  { id: 'agarwal2021deep', authors: 'Agarwal, R., Schwarzer, M., Castro, P. S., et al.', year: 2021, title: 'Deep Reinforcement Learning at the Edge of the Statistical Precipice', note: 'NeurIPS 2021', arxiv: '2108.13264' },
  { id: 'yue2025reinforcement', authors: 'Yue, Y., Chen, Z., Lu, R., et al.', year: 2025, title: 'Does Reinforcement Learning Really Incentivize Reasoning Capacity in LLMs Beyond the Base Model?', arxiv: '2504.13837' },
  { id: 'deepseek2025r1-nature', authors: 'DeepSeek-AI', year: 2025, title: 'DeepSeek-R1 incentivizes reasoning in LLMs through reinforcement learning', note: 'Nature', url: 'https://www.nature.com/articles/s41586-025-09422-z' },
  { id: 'trl-grpo-source', authors: 'Hugging Face', title: 'TRL v1.13.0 source: GRPOConfig and GRPOTrainer', url: 'https://github.com/huggingface/trl/blob/v1.13.0/trl/trainer/grpo_config.py', also: ['https://github.com/huggingface/trl/blob/v1.13.0/trl/trainer/grpo_trainer.py'] },
  { id: 'yue2025vapo', authors: 'Yue, Y., Yuan, Y., Yu, Q., et al.', year: 2025, title: 'VAPO: Efficient and Reliable Reinforcement Learning for Advanced Reasoning Tasks', arxiv: '2504.05118' },
  { id: 'minimax2025minimax', authors: 'MiniMax', year: 2025, title: 'MiniMax-M1: Scaling Test-Time Compute Efficiently with Lightning Attention', note: 'CISPO', arxiv: '2506.13585' },
  { id: 'sapo2025', year: 2025, title: 'Soft Adaptive Policy Optimization', note: 'SAPO', arxiv: '2511.20347' },
  { id: 'luspo2026', year: 2026, title: 'Length-Unbiased Sequence Policy Optimization: Revealing and Controlling Response Length Variation in RLVR', note: 'LUSPO', arxiv: '2602.05261' },
  { id: 'vespo2026', year: 2026, title: 'VESPO: Variational Sequence-Level Soft Policy Optimization for Stable Off-Policy LLM Training', arxiv: '2602.10693' },
  { id: 'lightman2023verify', authors: 'Lightman, H., Kosaraju, V., Burda, Y., et al.', year: 2023, title: "Let's Verify Step by Step", arxiv: '2305.20050' },
  { id: 'cui2025process', authors: 'Cui, G., Yuan, L., Wang, Z., et al.', year: 2025, title: 'Process Reinforcement through Implicit Rewards', arxiv: '2502.01456' },
  { id: 'wei2025swe', authors: 'Wei, Y., Duchenne, O., Copet, J., et al.', year: 2025, title: 'SWE-RL: Advancing LLM Reasoning via Reinforcement Learning on Open Software Evolution', arxiv: '2502.18449' },
  { id: 'luo2025deepswe', authors: 'Luo, M., Jain, N., Singh, J., Tan, S., et al.', year: 2025, title: 'DeepSWE: Training a Fully Open-sourced, State-of-the-Art Coding Agent by Scaling RL', note: 'Agentica and Together AI blog, 2 July 2025', url: 'https://www.together.ai/blog/deepswe' },
  { id: 'golubev2025training', authors: 'Golubev, A., Trofimova, M., Polezhaev, S., et al.', year: 2025, title: 'Training Long-Context, Multi-Turn Software Engineering Agents with Reinforcement Learning', arxiv: '2508.03501' },
  { id: 'fu2025areal', authors: 'Fu, W., Gao, J., Shen, X., et al.', year: 2025, title: 'AReaL: A Large-Scale Asynchronous Reinforcement Learning System for Language Reasoning', arxiv: '2505.24298' },
  { id: 'trl-async-grpo', authors: 'Hugging Face', title: 'TRL v1.13.0 source: AsyncGRPOConfig', url: 'https://github.com/huggingface/trl/blob/v1.13.0/trl/experimental/async_grpo/async_grpo_config.py' },
  { id: 'truncated-is2025', year: 2025, title: 'Truncated importance sampling for the rollout–training mismatch', note: 'blog post, as linked from TRL’s paper index', url: 'https://fengyao.notion.site/off-policy-rl' },
  { id: 'han2025self', authors: 'Han, P., Krishnan, A., Friedland, G., You, J., and Kong, C.', year: 2025, title: 'Self-Aligned Reward: Towards Effective and Efficient Reasoners', arxiv: '2509.05489' },
  { id: 'li2026reason', authors: 'Li, Y., Tang, S., and Lan, T.', year: 2026, title: 'Reason in Chains, Learn in Trees: Self-Rectification and Grafting for Multi-turn Agent Policy Optimization', note: 'T-STAR', arxiv: '2604.07165' },
  { id: 'zeng2026ucpo', authors: 'Zeng, X., Huang, J., Xie, C., et al.', year: 2026, title: 'UCPO: Uncertainty-Aware Policy Optimization', arxiv: '2601.22648' },
  { id: 'zhang2026delta', authors: 'Zhang, K., Wu, W., and Lin, Y.', year: 2026, title: 'DelTA: Discriminative Token Credit Assignment for Reinforcement Learning from Verifiable Rewards', arxiv: '2605.21467' },
  { id: 'zhang2025srpo', authors: 'Zhang, X., Wang, J., Cheng, Z., et al.', year: 2025, title: 'SRPO: A Cross-Domain Implementation of Large-Scale Reinforcement Learning on LLM', arxiv: '2504.14286' },
  { id: 'wan2025srpo', authors: 'Wan, Z., Dou, Z., Liu, C., et al.', year: 2025, title: 'SRPO: Enhancing Multimodal LLM Reasoning via Reflection-Aware Reinforcement Learning', arxiv: '2506.01713' },
  { id: 'li2026unifying', authors: 'Li, G., Yang, T., Fang, J., et al.', year: 2026, title: 'Unifying Group-Relative and Self-Distillation Policy Optimization via Sample Routing', note: 'SRPO', arxiv: '2604.02288' },
  { id: 'wu2026grow', authors: 'Wu, X., Luo, Z., Lei, S., et al.', year: 2026, title: 'GROW: Aligning GRPO with State-Action Modeling for Open-World VLM Agents', arxiv: '2605.20246' },
  { id: 'rllm-deepswe-script', authors: 'rLLM project', title: 'DeepSWE training script for Qwen3-32B', note: 'examples/swe/train_deepswe_32b_eager.sh', url: 'https://github.com/rllm-org/rllm/blob/45521502322955b8b09d02f3dfad25916c14c103/examples/swe/train_deepswe_32b_eager.sh' },
  { id: 'patil2023gorilla', authors: 'Patil, S. G., Zhang, T., Wang, X., and Gonzalez, J. E.', year: 2023, title: 'Gorilla: Large Language Model Connected with Massive APIs', arxiv: '2305.15334' },
  { id: 'qin2023toolllm', authors: 'Qin, Y., Liang, S., Ye, Y., et al.', year: 2023, title: 'ToolLLM: Facilitating Large Language Models to Master 16000+ Real-world APIs', arxiv: '2307.16789' },
  { id: 'zeng2023agenttuning', authors: 'Zeng, A., Liu, M., Lu, R., Wang, B., Liu, X., Dong, Y., and Tang, J.', year: 2023, title: 'AgentTuning: Enabling Generalized Agent Abilities for LLMs', arxiv: '2310.12823' },
  { id: 'mitra2024agentinstruct', authors: 'Mitra, A., Del Corro, L., Zheng, G., et al.', year: 2024, title: 'AgentInstruct: Toward Generative Teaching with Agentic Flows', arxiv: '2407.03502' },
  { id: 'song2024agentbank', authors: 'Song, Y., Xiong, W., Zhao, X., et al.', year: 2024, title: 'AgentBank: Towards Generalized LLM Agents via Fine-Tuning on 50000+ Interaction Trajectories', arxiv: '2410.07706' },
];

/** The link a reference is cited by: its arXiv abstract page, or its URL. */
export function referenceUrl(r: Reference): string {
  return r.arxiv ? `https://arxiv.org/abs/${r.arxiv}` : (r.url as string);
}
