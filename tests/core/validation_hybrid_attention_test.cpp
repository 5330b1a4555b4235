// The model on llama.cpp runs of Qwen3.5 27B, a hybrid of 48 Gated DeltaNet layers (a fixed
// recurrent state, no KV cache) and 16 full-attention layers: an RTX 4090 at depths of 0 to 32K
// tokens, and the Arc Pro B70. The shape's figures were written down before the RTX 4090's runs
// were read (experiments, round 49); the B70's had been read in round 48. And Qwen3.8 27B, the same
// shape, generating tokens with 2026 builds on four GeForce cards (round 68, the model's figures
// written down first), and on two cards split by layers and by tensors (round 70).
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "eval/stats.h"
#include "perf/model.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

std::map<std::string, BenchmarkRow> qwenRows() {
    return validationRowsBy("llamacpp-qwen35-27b-2026.csv",
                            [](const BenchmarkRow& r) { return r.gpu + " " + r.workload; });
}

double model(const BenchmarkRow& r) {
    return predictedOverMeasured(Catalog::builtin(), r) * r.throughput;
}

TEST(Validation, HybridAttentionTokenGenerationReadsTheFullLayersCacheOnly) {
    // The UD-Q4_K_XL file holds 7.6% more bytes than the model's 4.85 bits per weight, so the
    // model is fast by about that at depth 0 (+15%); 32K tokens later it is +16%: the measured
    // speed falls to 0.84 of depth 0, the model's to 0.85 (the 16 full layers' 2.1 GB of cache,
    // read at 65% of the weights' rate; 0.90 at their rate, one of the runs that share was set on).
    // Sized from the parameters as a Llama-like 27B, all 64 layers would cache and the model
    // would fall to 0.69: the shape halves the error of the decline.
    const auto rows = qwenRows();
    ASSERT_EQ(rows.size(), 11u);
    for (const char* depth : {"", "@d8192", "@d16384", "@d32768"}) {
        const BenchmarkRow& r = rows.at(std::string("RTX 4090 qwen3.5-27b-q4kxl-tg64") + depth);
        const double ratio = predictedOverMeasured(Catalog::builtin(), r);
        EXPECT_GT(ratio, 1.10) << r.workload;
        EXPECT_LT(ratio, 1.25) << r.workload;
    }
    const BenchmarkRow& atZero = rows.at("RTX 4090 qwen3.5-27b-q4kxl-tg64");
    const BenchmarkRow& deep = rows.at("RTX 4090 qwen3.5-27b-q4kxl-tg64@d32768");
    const double measuredDecline = deep.throughput / atZero.throughput;
    const double shapedDecline = model(deep) / model(atZero);
    EXPECT_NEAR(measuredDecline, 0.84, 0.01);
    EXPECT_NEAR(shapedDecline, 0.85, 0.01);
    perf::PerfQuery llamaLike = queryFor(deep, std::nullopt, false);
    llamaLike.llmKvCacheValues.reset();
    llamaLike.llmRecurrentStateBytes = 0;
    perf::PerfQuery llamaLikeAtZero = queryFor(atZero, std::nullopt, false);
    llamaLikeAtZero.llmKvCacheValues.reset();
    llamaLikeAtZero.llmRecurrentStateBytes = 0;
    const perf::PerfModel m(Catalog::builtin());
    const Gpu& rtx4090 = Catalog::builtin().require("RTX 4090");
    const double sizedDecline = m.throughput(rtx4090, llamaLike) / m.throughput(rtx4090, llamaLikeAtZero);
    EXPECT_LT(sizedDecline, 0.72);
    EXPECT_LT(std::abs(shapedDecline - measuredDecline), 0.5 * std::abs(sizedDecline - measuredDecline));
}

TEST(Validation, HybridAttentionPromptsAtDepthRunSlowerThanTheAttentionTermAllows) {
    // At depth 0 the 2026 build multiplies on the INT8 tensor cores, 1.35x the 2024 builds the
    // model follows (its note says up to 1.7x). At depth the 16 full layers' attention (width 256)
    // ran at about 37 TFLOPS: 32K tokens of cache halved the prompt's speed, where the model,
    // running attention at the FP16 rate, keeps 0.80 of it; the known attention-rate weakness
    // (the DGX Spark's flash attention 39 TFLOPS, the RX 7900 XTX's 36).
    const auto rows = qwenRows();
    const BenchmarkRow& zero = rows.at("RTX 4090 qwen3.5-27b-q4kxl-pp1024");
    const BenchmarkRow& deep = rows.at("RTX 4090 qwen3.5-27b-q4kxl-pp1024@d32768");
    EXPECT_NEAR(predictedOverMeasured(Catalog::builtin(), zero), 0.74, 0.03);
    EXPECT_NEAR(deep.throughput / zero.throughput, 0.50, 0.01);
    EXPECT_NEAR(model(deep) / model(zero), 0.80, 0.01);
    const double extraSecondsPerToken = 1.0 / deep.throughput - 1.0 / zero.throughput;
    const double attentionFlops = 16.0 * 24 * 256 * 4 * 32768;
    EXPECT_NEAR(attentionFlops / extraSecondsPerToken / 1e12, 37.0, 1.5);
}

TEST(Validation, HybridAttentionOnTheArcProB70IsSlowerStill) {
    // SYCL's Gated DeltaNet and attention: the B70 generates Qwen3.5 27B's tokens 45% below the
    // model, where its dense models were 4-19% below, and its 32K prompt runs at 0.43 of its 512
    // one (the model: 0.93).
    const auto rows = qwenRows();
    const double tokens = predictedOverMeasured(Catalog::builtin(), rows.at("Arc Pro B70 qwen3.5-27b-q4km-tg128"));
    EXPECT_GT(tokens, 1.35);
    EXPECT_LT(tokens, 1.55);
    const BenchmarkRow& shortPrompt = rows.at("Arc Pro B70 qwen3.5-27b-q4km-pp512");
    const BenchmarkRow& longPrompt = rows.at("Arc Pro B70 qwen3.5-27b-q4km-pp32768");
    EXPECT_NEAR(longPrompt.throughput / shortPrompt.throughput, 0.43, 0.01);
    EXPECT_NEAR(model(longPrompt) / model(shortPrompt), 0.93, 0.01);
}

TEST(Validation, AHybrid27BsFourBitTokensOnGeForceCardsAreWithinAFifth) {
    // Qwen3.8 27B with speculative decoding off (sudoingX/qwen38-mtp, August-November 2026): the
    // model over measured 1.07 (RTX 3090, RTX 4090 on Q4_K_M) to 1.17 (RTX 3090 Ti), median 1.12;
    // the UD-Q4_K_XL file's 9% more bytes than the model's 4.85 bits make up part of the 4090's
    // 1.15. The RTX 3090 ran at 0.87 of the RTX 4090 on the same quant, as the model says (0.86).
    const auto rows = validationRowsBy("llamacpp-qwen38-27b-2026.csv",
                                       [](const BenchmarkRow& r) { return r.gpu + " " + r.workload; });
    std::vector<double> ratios;
    for (const auto& [name, r] : rows) {
        if (r.metric() != perf::Metric::LlmDecode) {
            continue;
        }
        ratios.push_back(predictedOverMeasured(Catalog::builtin(), r));
        EXPECT_GT(ratios.back(), 1.04) << name;
        EXPECT_LT(ratios.back(), 1.20) << name;
    }
    ASSERT_EQ(ratios.size(), 6u);
    EXPECT_NEAR(median(ratios), 1.12, 0.02);
    const BenchmarkRow& ampere = rows.at("RTX 3090 qwen3.5-27b-q4km-tg400");
    const BenchmarkRow& ada = rows.at("RTX 4090 qwen3.5-27b-q4km-tg400");
    EXPECT_NEAR(ampere.throughput / ada.throughput, 0.87, 0.01);
    EXPECT_NEAR(model(ampere) / model(ada), 0.86, 0.01);
}

TEST(Validation, TwoCardsByLayersRunAtOneCardsSpeedAndTheNoteSaysWhatTensorsAdd) {
    // Two RTX 5060 Ti 16GB generating Qwen3.8 27B's tokens (UD-Q4_K_XL: 9% more bytes than the
    // model's 4.85 bits per weight) under llama.cpp, August 2026: 22.1 tokens/s split by layers,
    // as the model splits it (1.10 over, the file's bytes), 37.1 split by tensors - 1.5x the
    // model's figure, which the note on every multi-GPU LLM prediction quotes.
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmDecode;
    calc::applyModelShape(q, *calc::findModelShape("qwen3.5-27b"));
    q.llmContextTokens = 400;
    q.llmKvCache = perf::KvCacheType::Q4_0;
    q.gpus = 2;
    const perf::PerfModel model(Catalog::builtin());
    const perf::Prediction p = model.explain(Catalog::builtin().require("RTX 5060 Ti 16GB"), q);
    EXPECT_NEAR(p.throughput / 22.1, 1.10, 0.03);
    EXPECT_GT(37.1 / p.throughput, 1.45);
    const auto note = std::find_if(p.notes.begin(), p.notes.end(), [](const std::string& n) {
        return n.rfind("LLM inference split over GPUs", 0) == 0;
    });
    ASSERT_NE(note, p.notes.end());
    EXPECT_NE(note->find("-sm tensor"), std::string::npos) << *note;
    EXPECT_NE(note->find("two RTX 5060 Ti 16GB 37.1 tokens/s by tensors against 22.1 by layers"), std::string::npos)
        << *note;
}

} // namespace
} // namespace advisor::eval
