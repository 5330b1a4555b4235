#pragma once
/// \file
/// Training a transformer language model of billions of parameters (or running it over whole
/// sequences as 8-bit or 16-bit inference). The calibration networks of 2020-21 (BERT,
/// TransformerXL) spend a third of a fast GPU's time on work no GPU speeds up, which caps the
/// newest cards (a B200 would train such a network 1.3x as fast as an H100); a model of
/// billions of parameters takes seconds per step in large matmuls and the memory traffic
/// around them. Seed (practical speed estimates): "The practical transformer estimate is very
/// close to the theoretical estimate. This is probably because algorithms for huge matrices
/// are very straightforward."

#include "perf/constants.h"
#include "perf/terms.h"

namespace advisor::perf {

/// The smallest model a benchmark name's size makes a language model (eval-model): smaller
/// transformers, BERT-Large's 0.34B among them, keep the class's fitted shares, which the
/// calibration networks of that size set.
constexpr double kLanguageModelMinParamsBillion = 0.5;

/// Share of a language model's training step on the reference GPU (a V100 SXM2) that goes at
/// memory speed; the rest is its matmuls at the tensor roof. Even, by the seed's two
/// indicators: tensor cores first, and memory bandwidth "the single best indicator" between
/// tensor-core GPUs. FLOPs and bytes alone say far less memory time (about 5% for a 7B model:
/// its matmuls do 72 d^2 FLOPs per token and layer against about 108 d bytes between them), but
/// attention, normalisations and optimizer kernels reach a smaller part of their peak: MosaicML's
/// 2023 runs put an H100 SXM5 at 1.8-2.4x an A100 80GB SXM4 (760M to 30B parameters), between
/// their bandwidth (1.64x) and tensor (3.17x) ratios, where 5% would say 3.0x. Chosen after that
/// comparison (docs/performance-model-experiments.md, round 20), not fitted.
constexpr double kLlmMemoryShare = 0.5;

/// The profile of a transformer language model, in the units of every profile (a V100 SXM2 in
/// fp16 training): kLlmMemoryShare of the time at memory speed and the rest in matmuls, both at
/// the training clock as for every network; no CUDA-core share, no GPU-independent overhead (a
/// step of seconds leaves host time and kernel launches negligible) and no batch gain (a
/// micro-batch of thousands of tokens already fills the GPU: MosaicML's A100 40GB, at a quarter
/// of the 80GB card's micro-batch, ran 0.91-0.96 of its speed). The same for every size:
/// MosaicML's runs from 760M to 30B parameters rank the two GPUs alike.
/// Built once: it depends on nothing.
const WorkloadProfile& llmTrainingProfile();

/// Tokens each GPU works through between two gradient all-reduces: a global batch of half a
/// million tokens over 8 GPUs (MosaicML's MPT runs used 0.1-4.7 million; LLaMA's 4 million over
/// thousands of GPUs). Not fitted.
constexpr double kLlmTokensPerGpuStep = 65536.0;

/// Data-parallel efficiency of training a language model on `gpus` GPUs: each step's gradients
/// (2 bytes per parameter, 4 in fp32 training) cross the link in a ring all-reduce, 2 (n - 1) / n
/// times, after kLlmTokensPerGpuStep tokens of 6 FLOPs per parameter each at the GPU's speed
/// (`singleSpeedVsReference` x the reference's tensor peak). Both grow with the parameters, so
/// the ratio does not depend on the model's size. Counted without overlap with the backward
/// pass (FSDP and DDP hide part of it), and no per-step synchronisation: a step takes seconds.
double llmDataParallelEfficiency(double singleSpeedVsReference, int gpus, const Link& link, Metric m,
                                 const ModelConstants& c);

} // namespace advisor::perf
