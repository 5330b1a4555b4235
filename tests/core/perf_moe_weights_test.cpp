// A mixture of experts' weights in two parts, each read at its bits (perf::weightParts).
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "catalog/catalog.h"
#include "common/errors.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

namespace advisor::perf {
namespace {

PerfQuery gptOss20b(Precision weights = Precision::Int4) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmWeights = weights;
    calc::applyModelShape(q, *calc::findModelShape("gpt-oss-20b"));
    return q;
}

TEST(MoeWeights, EveryTokenReadsTheSharedWeightsAtTheirOwnBitsAndTheFileKeepsItsSize) {
    // gpt-oss-20b in llama.cpp's file: 20.9B parameters at 4.63 bits in all (11.27 GiB), 32 experts
    // of which a token uses 4, 3.6B active; attention, router and output head in Q8_0 (8.5 bits).
    const PerfQuery q = gptOss20b();
    ASSERT_EQ(q.llmWeightBits, 4.63);
    ASSERT_EQ(q.llmSharedWeightBits, 8.5);
    const WeightParts w = weightParts(q);
    const double expert = (20.9 - 3.6) / (32 - 4); // total = shared + 32 x expert, active = shared + 4 x expert
    EXPECT_NEAR(w.routedBillion, 32 * expert, 1e-12);
    EXPECT_NEAR(w.sharedBillion, 3.6 - 4 * expert, 1e-12);
    EXPECT_NEAR(w.sharedBillion, 1.13, 0.005);
    EXPECT_EQ(w.sharedBits, 8.5);
    // The experts take what the shared part leaves of the file's total: 4.41 bits.
    EXPECT_NEAR(w.sharedBillion * w.sharedBits + w.routedBillion * w.routedBits, 20.9 * 4.63, 1e-9);
    EXPECT_NEAR(w.routedBits, 4.41, 0.005);
    // What memory holds is still the file (and one request's cache).
    EXPECT_NEAR(llmBytesHeld(q), 20.9e9 * 4.63 / 8 + kvCacheBytes(q), 1.0);
    // A token reads 1.13B at 8.5 bits and 4 of the 32 experts at 4.41: 2.56 GB, where all 3.6B
    // at the file's average would be 2.08 GB.
    const double perToken = (w.sharedBillion * 8.5 + 4 * expert * w.routedBits) * 1e9 / 8;
    EXPECT_NEAR(llmWeightBytesRead(q, 1), perToken, 1.0);
    EXPECT_NEAR(perToken / 1e9, 2.56, 0.005);
    EXPECT_NEAR(llmBytesPerToken(q), perToken + kvCacheBytes(q), 1.0);
    // Eight sequences read the shared part once and the experts any of their routers picks.
    PerfQuery eight = q;
    eight.llmSequences = 8;
    const double picked = 1 - std::pow(1 - 4.0 / 32, 8);
    EXPECT_NEAR(llmWeightBytesRead(eight, 8),
                (w.sharedBillion * 8.5 + w.routedBillion * picked * w.routedBits) * 1e9 / 8, 1.0);
    EXPECT_NEAR(llmBytesPerStep(eight), llmWeightBytesRead(eight, 8) + 8 * kvCacheBytes(eight), 1.0);
}

TEST(MoeWeights, WithoutSharedBitsOrRoutingEveryWeightIsReadAtTheFilesBits) {
    // The same model with the shared bits unset reads its 3.6B active parameters at 4.63 bits.
    PerfQuery uniform = gptOss20b();
    uniform.llmSharedWeightBits.reset();
    EXPECT_NEAR(llmWeightBytesRead(uniform, 1), 3.6e9 * 4.63 / 8, 1.0);
    const WeightParts w = weightParts(uniform);
    EXPECT_EQ(w.sharedBits, w.routedBits);
    // 8-bit weights are llama.cpp's Q8_0 for every tensor: no shared bits of their own.
    EXPECT_FALSE(gptOss20b(Precision::Int8).llmSharedWeightBits.has_value());
    // A dense model has no parts: shared bits change nothing.
    PerfQuery dense;
    dense.llmParamsBillion = 8;
    const double before = llmWeightBytesRead(dense, 1);
    dense.llmSharedWeightBits = 16;
    EXPECT_EQ(llmWeightBytesRead(dense, 1), before);
    EXPECT_EQ(weightParts(dense).sharedBillion, 8);
    EXPECT_EQ(weightParts(dense).routedBillion, 0);
}

std::string shapesWith(const std::string& extra, const std::string& active = "3.6") {
    return R"({"models": [{"id": "m", "label": "M", "params_billion": 20.9, "active_params_billion": )" + active +
           R"(, "experts": 32, "experts_per_token": 4, "layers": 24, "hidden": 2880, "heads": 64, "kv_heads": 8, "head_dim": 64,
        "context_tokens": 131072, "source": "test")" +
           extra + "}]}";
}

std::string problemWith(const std::string& extra, const std::string& active = "3.6") {
    try {
        calc::parseModelShapes(shapesWith(extra, active), "shapes.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(MoeWeights, AModelShapesSharedBitsAreCheckedAndNamed) {
    const auto ok = calc::parseModelShapes(
        shapesWith(R"(, "int4_bits_per_weight": 4.63, "int4_format": "MXFP4", "int4_shared_bits_per_weight": 8.5)"),
        "shapes.json");
    ASSERT_EQ(ok.size(), 1u);
    EXPECT_EQ(ok[0].int4SharedBitsPerWeight, 8.5);
    // Without the file's own bits, or below them, or more than the file can hold beside 2-bit
    // experts (10B active of 20.9: 8.4B shared, whose 16 bits take more than 3 bits of all).
    struct Case {
        std::string extra;
        std::string active;
        std::string reason;
    };
    for (const auto& [extra, active, reason] :
         {Case{R"(, "int4_shared_bits_per_weight": 8.5)", "3.6", "only a mixture of experts with its own 4-bit file"},
          Case{R"(, "int4_bits_per_weight": 4.63, "int4_format": "MXFP4", "int4_shared_bits_per_weight": 4)", "3.6",
               "must be from int4_bits_per_weight to 16.5"},
          Case{R"(, "int4_bits_per_weight": 3, "int4_format": "MXFP4", "int4_shared_bits_per_weight": 16)", "10",
               "leaves the routed experts less than 2 bits"}}) {
        const std::string problem = problemWith(extra, active);
        EXPECT_NE(problem.find("shapes.json"), std::string::npos) << problem;
        EXPECT_NE(problem.find("model 1"), std::string::npos) << problem;
        EXPECT_NE(problem.find("int4_shared_bits_per_weight"), std::string::npos) << problem;
        EXPECT_NE(problem.find(reason), std::string::npos) << problem;
    }
}

TEST(MoeWeights, AModelShapesMixtureLayerStepIsCheckedAndNamed) {
    // Every how many layers hold the experts: Llama 4 Maverick's 2; 1 (every layer) unless given.
    EXPECT_EQ(calc::parseModelShapes(shapesWith(""), "shapes.json")[0].moeLayerStep, 1);
    EXPECT_EQ(calc::parseModelShapes(shapesWith(R"(, "moe_layer_step": 2)"), "shapes.json")[0].moeLayerStep, 2);
    EXPECT_EQ(calc::findModelShape("llama-4-maverick")->moeLayerStep, 2);
    EXPECT_EQ(calc::findModelShape("llama-4-scout")->moeLayerStep, 1);
    for (const auto& [extra, reason] :
         {std::pair<std::string, std::string>{R"(, "moe_layer_step": 0)", "moe_layer_step"},
          {R"(, "moe_layer_step": 25)", "moe_layer_step"}}) {
        const std::string problem = problemWith(extra);
        EXPECT_NE(problem.find("shapes.json"), std::string::npos) << problem;
        EXPECT_NE(problem.find(reason), std::string::npos) << problem;
    }
    // A dense model has no layers with experts.
    const std::string dense = R"({"models": [{"id": "d", "label": "D", "params_billion": 8, "layers": 32,
        "hidden": 4096, "kv_heads": 8, "moe_layer_step": 2, "context_tokens": 8192, "source": "test"}]})";
    try {
        calc::parseModelShapes(dense, "shapes.json");
        ADD_FAILURE() << "a dense model's moe_layer_step was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("moe_layer_step"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("only a mixture of experts"), std::string::npos) << e.what();
    }
}

TEST(MoeWeights, TheMixtureNoteQuotesItsMeasuredRunsAgainstTheModelAsItIs) {
    // The note every mixture of experts carries quotes runs where routed experts' kernels ran
    // slower than the model: each ratio recomputed from the model as shipped.
    const PerfModel model(Catalog::builtin());
    const auto figure = [&](const char* gpu, const char* shape, int context, std::optional<double> bits) {
        PerfQuery q;
        q.metric = Metric::LlmDecode;
        q.llmWeights = Precision::Int4;
        calc::applyModelShape(q, *calc::findModelShape(shape));
        q.llmContextTokens = context;
        if (bits) {
            q.llmWeightBits = bits;
        }
        return model.throughput(Catalog::builtin().require(gpu), q);
    };
    // llama.cpp PR #16834 (October 2025), an RTX 4090, tg128: gpt-oss-20b (its MXFP4 file) 186
    // tokens/s, Qwen3-30B-A3B Q4_0 (4.5 bits) 162.
    const double gptOss = 186.0 / figure("RTX 4090", "gpt-oss-20b", 64, std::nullopt);
    const double qwen3 = 162.0 / figure("RTX 4090", "qwen3-30b-a3b", 64, 4.5);
    // club-3090's RTX 3090 (May 2026, experiments round 68): Qwen3.6-35B-A3B UD-Q4_K_XL, 137 tokens/s
    // over 200-250 tokens after a short prompt.
    const double qwen36 = 136.84 / figure("RTX 3090", "qwen3.6-35b-a3b", 400, std::nullopt);
    const std::string note = mixtureOfExpertsNote(gptOss20b());
    for (const double ratio : {gptOss, qwen3, qwen36}) {
        EXPECT_NE(note.find(format::number(ratio, 2) + "x"), std::string::npos) << ratio << "\n" << note;
    }
}

} // namespace
} // namespace advisor::perf
