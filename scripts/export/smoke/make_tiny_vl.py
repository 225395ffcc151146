"""A stand-in for Qwen/Qwen2.5-VL-3B-Instruct, made locally, for running an exported vision project on a CPU.

  python make_tiny_vl.py [MODEL_DIR]        (default /tmp/tiny-qwen-vl)

A random Qwen2.5-VL (2 vision blocks, 2 text layers, a few hundred thousand parameters) with a byte-level BPE tokenizer
trained here on the lab's words, Qwen's pre-tokenizer regex and Qwen2.5-VL's special tokens (<|vision_start|>,
<|image_pad|>, ...). Its chat template is Qwen2.5-VL's own, read from the installed TRL (trl/chat_templates/
qwen2_5_vl.jinja), and run.py gives it to the processor it builds (image_only_processor below): transformers 5.17's
Qwen2.5-VL processor requires a video processor, which imports torchvision, and this project's package index has no
torchvision. Images go through Qwen2-VL's Pillow image processor, the same resizing and patching rules.
Fetches nothing.
"""
import sys
from pathlib import Path

import trl
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor

QWEN_SPLIT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
# Tokens a random model must not sample: an <|image_pad|> in a completion is one image token more than the picture has.
VISION_TOKENS = SPECIAL[3:]
WORDS = "how many red green blue yellow squares circles triangles shapes what colour is at row column answer with one number or colour word nothing else the picture is a grid of cells some hold square circle triangle rows and columns are counted from starting top left system user assistant 0 1 2 3 4 5 6 7 8 9 ? . ,"


class ImageOnlyQwen2_5_VLProcessor(Qwen2_5_VLProcessor):
    """Qwen2.5-VL's processor without a video processor (which needs torchvision); images only."""

    def check_argument_for_proper_class(self, name, arg):
        if name == "video_processor" and arg is None:
            return None
        return super().check_argument_for_proper_class(name, arg)

    def save_pretrained(self, save_directory, **kwargs):
        self.tokenizer.save_pretrained(save_directory)
        self.image_processor.save_pretrained(save_directory)


def image_only_processor(model_dir, pixels: int):
    from transformers import AutoTokenizer
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    template = (Path(trl.__file__).parent / "chat_templates" / "qwen2_5_vl.jinja").read_text()
    tokenizer = AutoTokenizer.from_pretrained(model_dir, padding_side="left")
    return ImageOnlyQwen2_5_VLProcessor(Qwen2VLImageProcessorPil(min_pixels=pixels, max_pixels=pixels), tokenizer, None, chat_template=template)


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tiny-qwen-vl")
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(QWEN_SPLIT), behavior="isolated"), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator([WORDS] * 50, trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.model_max_length = 4096
    tokenizer.save_pretrained(out)
    ids = tokenizer.convert_tokens_to_ids
    config = Qwen2_5_VLConfig(
        text_config=dict(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=4096, rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3]},
                         eos_token_id=ids("<|im_end|>"), pad_token_id=ids("<|endoftext|>")),
        vision_config=dict(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, out_hidden_size=64, patch_size=14, spatial_merge_size=2,
                           temporal_patch_size=2, fullatt_block_indexes=[1], window_size=56),
        image_token_id=ids("<|image_pad|>"), video_token_id=ids("<|video_pad|>"), vision_start_token_id=ids("<|vision_start|>"), vision_end_token_id=ids("<|vision_end|>"),
    )
    model = Qwen2_5_VLForConditionalGeneration(config)
    model.generation_config = GenerationConfig(eos_token_id=[ids("<|im_end|>"), ids("<|endoftext|>")], pad_token_id=ids("<|endoftext|>"), suppress_tokens=[ids(t) for t in VISION_TOKENS])
    model.save_pretrained(out)
    print(f"{out}: vocabulary {len(tokenizer)}, {sum(p.numel() for p in model.parameters())} parameters")


if __name__ == "__main__":
    main()
