export declare const ROOT: string;
export declare const KERNELS: Record<'decode' | 'matmul' | 'dense' | 'attention' | 'layernorm' | 'adam' | 'ppo' | 'logprob', { source: string; output: string; constant: string; test: string; flags?: string[] }>;
export declare const FLAGS: string[];
export declare function compileKernel(name: keyof typeof KERNELS): Promise<string>;
