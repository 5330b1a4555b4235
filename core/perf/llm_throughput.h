#pragma once
/// \file
/// LLM inference's tokens/s, llama.cpp-style (modelThroughput's LlmDecode and LlmPrefill): token
/// generation reads every weight and the KV cache per token, from the GPUs and, for a model
/// partly left in system RAM, from it (perf/llm_offload.h); prompt processing multiplies them.

#include "perf/model.h"

#include <optional>
#include <string>

namespace advisor::perf {

/// The share of token generation's reads that follows the core clock under a power limit: the
/// kernels that stream the weights also dequantise and multiply them at the core clock, and at a
/// low clock that work no longer hides under the reads. Least squares over the RTX PRO 6000
/// Blackwell's vLLM sweep of a dense 27B in 4 bits, the one sweep that logged its clock (400 / 350 /
/// 300 W: clock 0.89 / 0.75 / 0.56, speed 0.989 / 0.951 / 0.868): 0.186 of a token follows the
/// clock, and the reads are 81% of its time in the model (experiments round 63). The fixed time
/// per token does not: it is mostly the host's (launching the token's kernels, sampling) and
/// waiting: the same card's mixture of experts (67% of its token fixed, drawing 483 of 600 W) and a
/// 7B under llama.cpp (48%) lost as if about a tenth of their token followed the clock.
inline constexpr double kDecodeReadsClockBoundShare = 0.23;

/// Tokens/s of token generation on q.gpus of g; fills out's time shares, single-GPU speed and,
/// when part of the model is read from system RAM, its split.
double decodeThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                        Prediction* out);

/// The rate prompt processing runs attention at, in TFLOPS: the FP16 tensor rate with FP32 sums
/// (flash attention's softmax; GeForce's half rate) at the dense-matmul clock and the prompt's
/// fitted efficiency for the weights' precision.
double prefillAttentionTflops(const EffectiveSpecs& s, Precision weights, const ModelConstants& c);

/// A prompt token's share of the weights' time: for each part of the model (a mixture of
/// experts' shared weights and routed experts; a dense model's all), the longer of its multiplies
/// and its share of each micro-batch's reads of it (PerfQuery::llmMicroBatchTokens), as the
/// multiplies and what the reads add beyond them (none with ModelConstants::prefillWeightReads off).
struct PrefillWeightTime {
    double multiplySeconds = 0;
    double readWaitSeconds = 0;
    double total() const { return multiplySeconds + readWaitSeconds; }
};
PrefillWeightTime prefillWeightTime(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c);

/// The smallest micro-batch, doubling from q's up to 65,536 tokens, at which no part of the model
/// waits on its reads any more (a prompt at least that long), if q's waits; else nothing.
std::optional<int> microBatchCoveringReads(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c);

/// The explanation of the reads' wait (prefillReadsDetail) and, when a larger micro-batch covers
/// them, "(a micro-batch of 2,048 covers them: about 3,558 tokens/s for a 2,048-token prompt)", the
/// longer prompt's attention scaled to its length.
std::string prefillReadsFactorDetail(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q,
                                     const ModelConstants& c);

/// Tokens/s of prompt processing with the whole model on the GPUs; fills out's time shares and
/// single-GPU speed.
double prefillThroughput(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c, Prediction* out);
/// The same on g, with what q leaves in system RAM (offloads) copied to it for each step
/// (prefillOffload): the copy's share of the time is out's systemRamShare.
double prefillThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                         Prediction* out);

} // namespace advisor::perf
