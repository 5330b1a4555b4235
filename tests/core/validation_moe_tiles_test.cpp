// A mixture of experts' prompt against dense models' in one build (round 61): each routed expert's
// tokens are padded to whole matmul tiles of 128 (perf::routedTilePadding). The RTX PRO 6000 runs of
// tests/fixtures/validation/llamacpp-rtx-pro-6000-2025.csv were found after the term was written
// down and are scored here, never fitted.
#include "catalog/catalog.h"
#include "perf/model.h"
#include "validation_support.h"

#include <gtest/gtest.h>
#include <string>

namespace advisor::eval {
namespace {

double overMeasured(const perf::PerfModel& model, const BenchmarkRow& r) {
    return model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput;
}

TEST(Validation, OneBuildsMixturesOfExpertsPromptsAgainstItsDenseOnesOnAnRtxPro6000) {
    const auto rows =
        validationRowsBy("llamacpp-rtx-pro-6000-2025.csv", [](const BenchmarkRow& r) { return r.workload; });
    ASSERT_EQ(rows.size(), 8u);
    const perf::PerfModel model(Catalog::builtin());
    perf::ModelConstants untiled = perf::ModelConstants::builtin();
    untiled.prefillExpertTiles = false;
    const perf::PerfModel before(Catalog::builtin(), untiled);
    // The dense models' prompts run at 1.7-1.9x the model in this September 2025 build (model over
    // measured 0.52-0.59): it multiplies quantized weights on the INT8 tensor cores, where the
    // calibration's May 2024 runs dequantised them for FP16 (the note perf gives says up to 1.7x).
    for (const char* dense : {"llama-2-7b-q4_0-pp512", "llama-3.1-70b-q4km-pp512"}) {
        EXPECT_GT(overMeasured(model, rows.at(dense)), 0.50) << dense;
        EXPECT_LT(overMeasured(model, rows.at(dense)), 0.61) << dense;
        EXPECT_DOUBLE_EQ(overMeasured(model, rows.at(dense)), overMeasured(before, rows.at(dense))) << dense;
    }
    // The mixtures' prompts, the same build: 2.38x and 4.15x without the tiles, 1.64x and 2.29x with
    // them (512 tokens a step give each picked expert 36 and 25 tokens, padded to 128). Closer to the
    // dense rows' 0.52-0.59, and still well above them: the rest is left open (round 61).
    EXPECT_NEAR(overMeasured(before, rows.at("qwen3-30b-a3b-q4km-pp512")), 2.38, 0.02);
    EXPECT_NEAR(overMeasured(model, rows.at("qwen3-30b-a3b-q4km-pp512")), 1.64, 0.02);
    EXPECT_NEAR(overMeasured(before, rows.at("gpt-oss-120b-mxfp4-pp512")), 4.15, 0.03);
    EXPECT_NEAR(overMeasured(model, rows.at("gpt-oss-120b-mxfp4-pp512")), 2.29, 0.02);
    // Token generation (no tiles: one token a step) within 8% for the dense 70B and 16-20% fast for
    // the mixtures; the 7B 23% slow, its build's smaller fixed time per token (round 32).
    EXPECT_NEAR(overMeasured(model, rows.at("llama-3.1-70b-q4km-tg128")), 1.08, 0.02);
    EXPECT_NEAR(overMeasured(model, rows.at("llama-2-7b-q4_0-tg128")), 0.77, 0.02);
    for (const char* mixture : {"gpt-oss-120b-mxfp4-tg128", "qwen3-30b-a3b-q4km-tg128"}) {
        EXPECT_GT(overMeasured(model, rows.at(mixture)), 1.14) << mixture;
        EXPECT_LT(overMeasured(model, rows.at(mixture)), 1.22) << mixture;
        EXPECT_DOUBLE_EQ(overMeasured(model, rows.at(mixture)), overMeasured(before, rows.at(mixture))) << mixture;
    }
}

} // namespace
} // namespace advisor::eval
