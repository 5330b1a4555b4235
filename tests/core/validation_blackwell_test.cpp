// The model on llama.cpp runs of Blackwell cards, which the calibration never saw
// (tests/fixtures/validation), within the error docs/performance-model.md reports.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace advisor::eval {
namespace {

TEST(Validation, LlamaCppOnABlackwellWorkstationCardInTokensPerSecond) {
    // tests/fixtures/validation/llamacpp-blackwell-pro6000-2026.csv: an RTX PRO 6000 Blackwell
    // (MMBT, May 2026), Qwen3.6-27B in Q8_0, one stream; no Blackwell card was in the calibration.
    // docs/performance-model.md: token generation 4% fast, prompt processing 8% fast.
    const auto rows = validationRows("llamacpp-blackwell-pro6000-2026.csv");
    ASSERT_EQ(rows.size(), 2u);
    const perf::PerfModel model(Catalog::builtin());
    for (const auto& r : rows) {
        const double predicted = model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false));
        EXPECT_LT(std::fabs(predicted / r.throughput - 1.0), 0.10) << r.workload << ": " << predicted;
    }
}

TEST(Validation, LlamaCppOnThe300WattBlackwellAgainstAdaInOneBuild) {
    // tests/fixtures/validation/llamacpp-ada-vs-blackwell-maxq-2026.csv: an RTX 6000 Ada and an
    // RTX PRO 6000 Blackwell Max-Q (300 W, its sustained clock set by its power per SM against the
    // RTX 5090) in one llama.cpp build (PR 19053, February 2026). docs/performance-model.md: the
    // Max-Q's lead on the dense model's 8K prompt and on gpt-oss's token generation within 5%; its
    // 1.5x on gpt-oss's prompt is MXFP4 run on Blackwell's FP4 tensor cores, which the model's
    // 8-bit path for 4-bit weights does not know (predicted 1.0x).
    const auto ev = evaluateValidation("llamacpp-ada-vs-blackwell-maxq-2026.csv", "RTX 6000 Ada");
    EXPECT_TRUE(ev.unresolved.empty());
    std::map<std::string, const EvaluatedRow*> maxQ;
    for (const auto* r : evaluatedRowsOf(ev, "RTX PRO 6000 Blackwell Max-Q")) {
        maxQ[r->row.workload] = r;
    }
    ASSERT_EQ(maxQ.size(), 3u);
    for (const char* close : {"llama-3b-q4km-pp8096", "gpt-oss-20b-mxfp4-tg128"}) {
        ASSERT_TRUE(maxQ.count(close)) << close;
        EXPECT_LT(std::fabs(maxQ[close]->errorPct), 6.0) << close;
    }
    const auto* fp4 = maxQ.at("gpt-oss-20b-mxfp4-pp8096");
    EXPECT_NEAR(fp4->measuredRelative, 1.497, 0.001);
    EXPECT_NEAR(fp4->predictedRelative, 1.0, 0.05);

    // Token generation of the dense models on the Ada card: the model's memory time plus the
    // measured rest gives the build's fixed time per token, 0.6-1.2 ms against the 2.3 ms fitted
    // on llama.cpp's May 2024 runs, so small models generate 25-30% faster than predicted there.
    const perf::PerfModel model(Catalog::builtin());
    const double fittedMs = perf::ModelConstants::builtin().decodeOverheadMs;
    EXPECT_NEAR(fittedMs, 2.24, 0.01);
    for (const auto& r : validationRows("llamacpp-ada-vs-blackwell-maxq-2026.csv")) {
        if (r.gpu != "RTX 6000 Ada" || r.workloadClass != "llm-decode" || r.workload.rfind("llama", 0) != 0) {
            continue;
        }
        const perf::Prediction p = model.explain(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false));
        EXPECT_LT(p.throughput, 0.80 * r.throughput) << r.workload;
        const double memoryMs = 1000.0 * p.memoryShare / p.throughput;
        const double buildFixedMs = 1000.0 / r.throughput - memoryMs;
        EXPECT_GT(buildFixedMs, 0.4) << r.workload; // 0.6 ms (8B Q4_0), 1.2 ms (3B Q4_K_M)
        EXPECT_LT(buildFixedMs, 1.4) << r.workload;
    }
    // gpt-oss-20b on the same card and build leaves the dense models' fixed time once its Q8_0
    // attention and output head are read at their bits (round 57): 1.1 ms. With every weight at
    // the file's average 4.63 bits a token's bytes are 19% fewer and 1.6 ms is left over, more
    // than either dense model's.
    for (const auto& r : validationRows("llamacpp-ada-vs-blackwell-maxq-2026.csv")) {
        if (r.gpu != "RTX 6000 Ada" || r.workload != "gpt-oss-20b-mxfp4-tg128") {
            continue;
        }
        perf::PerfQuery q = queryFor(r, std::nullopt, false);
        const auto fixedMs = [&](const perf::PerfQuery& query) {
            const perf::Prediction p = model.explain(Catalog::builtin().require(r.gpu), query);
            return 1000.0 / r.throughput - 1000.0 * p.memoryShare / p.throughput;
        };
        EXPECT_GT(fixedMs(q), 0.6);
        EXPECT_LT(fixedMs(q), 1.25);
        q.llmSharedWeightBits.reset();
        EXPECT_GT(fixedMs(q), 1.4);
    }
}

TEST(Validation, LlamaCppOnADgxSparkInTokensPerSecond) {
    // tests/fixtures/validation/llamacpp-dgx-spark-2025.csv: llama.cpp's own DGX Spark page (build
    // 6918, November 2025), five models at depths 0 to 32K; the catalog entry was written before
    // the rows were read. docs/performance-model.md: the dense model's token generation 2% fast at
    // depth 0 and within 1% after 8-32K tokens (the cache read at 65% of the weights' rate; 2-8%
    // fast without it), its prompt 7.5% fast at depth 0 with the GB10's power against the RTX 5070's SMs, and 71%
    // fast without it.
    const perf::PerfModel model(Catalog::builtin());
    std::map<std::string, BenchmarkRow> rows;
    for (const auto& r : validationRows("llamacpp-dgx-spark-2025.csv")) {
        rows[r.workload] = r;
    }
    ASSERT_EQ(rows.size(), 50u);
    const auto ratio = [&](const perf::PerfModel& m, const std::string& workload) {
        const BenchmarkRow& r = rows.at(workload);
        return m.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput;
    };
    for (const char* depth : {"", "@d4096", "@d8192", "@d16384", "@d32768"}) {
        const std::string tg = std::string("qwen2.5-7b-q8_0-tg32") + depth;
        EXPECT_GT(ratio(model, tg), 0.98) << tg; // 273 GB/s read in full, the fixed time per token of 2024
        EXPECT_LT(ratio(model, tg), 1.05) << tg;
    }
    EXPECT_NEAR(ratio(model, "qwen2.5-7b-q8_0-pp2048"), 1.0, 0.10);
    EXPECT_NEAR(ratio(model, "qwen3-30b-a3b-q8_0-tg32"), 1.0, 0.05);

    // The prompt without the board-power term: the GB10 as a 48-SM Blackwell at full clock.
    Catalog unpowered = Catalog::builtin();
    Gpu fullClock = Catalog::builtin().require("DGX Spark");
    fullClock.id = "spark-at-full-clock";
    fullClock.name = "Spark at full clock";
    fullClock.aliases.clear();
    fullClock.configurationPeer.clear();
    fullClock.custom = true;
    unpowered.add(fullClock);
    const perf::PerfModel fullClockModel(unpowered);
    const BenchmarkRow& prompt = rows.at("qwen2.5-7b-q8_0-pp2048");
    const double atFullClock =
        fullClockModel.throughput(unpowered.require(fullClock.name), queryFor(prompt, std::nullopt, false));
    EXPECT_GT(atFullClock / prompt.throughput, 1.5);

    // Known misses, pinned: attention at depth costs this build less than the model's FP32-sum
    // half rate (the 32K prompt keeps 0.56 of its speed, the model 0.42; the RX 7900 XTX of round
    // 30 was slower than the model), and a mixture of experts' prompt runs slower than its active
    // weights say (gpt-oss 120B +24%; +86% before each expert's tokens were padded to whole matmul
    // tiles, round 61). Its tokens were +28% too while the model read the file's
    // Q8_0 attention and output head at the experts' bits; read at their own (round 57), +7%, and
    // the 20B within 2%.
    const double kept = rows.at("qwen2.5-7b-q8_0-pp2048@d32768").throughput / prompt.throughput;
    const double keptModel =
        ratio(model, "qwen2.5-7b-q8_0-pp2048@d32768") / ratio(model, "qwen2.5-7b-q8_0-pp2048") * kept;
    EXPECT_NEAR(kept, 0.564, 0.001);
    EXPECT_LT(keptModel, kept - 0.1);
    EXPECT_GT(ratio(model, "gpt-oss-120b-mxfp4-tg32"), 1.04);
    EXPECT_LT(ratio(model, "gpt-oss-120b-mxfp4-tg32"), 1.10);
    EXPECT_NEAR(ratio(model, "gpt-oss-20b-mxfp4-tg32"), 1.0, 0.02);
    EXPECT_GT(ratio(model, "gpt-oss-120b-mxfp4-pp2048"), 1.2);
    EXPECT_LT(ratio(model, "gpt-oss-120b-mxfp4-pp2048"), 1.3);
}

TEST(Validation, GemmaThreeOnADgxSparkWithItsSlidingWindows) {
    // The same page's Gemma 3 4B Q4_0 rows, scored once the preset gave its shape (34 layers, 29
    // of them attending to the last 1,024 tokens only). Without the shape every layer attends to
    // the whole depth, and the 32K prompt came out at 0.41 of the measured speed.
    const perf::PerfModel model(Catalog::builtin());
    std::map<std::string, BenchmarkRow> rows;
    for (const auto& r : validationRows("llamacpp-dgx-spark-2025.csv")) {
        rows[r.workload] = r;
    }
    const auto predicted = [&](BenchmarkRow r) {
        return model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false));
    };
    const BenchmarkRow& deepPrompt = rows.at("gemma3-4b-q4_0-pp2048@d32768");
    EXPECT_NEAR(predicted(deepPrompt) / deepPrompt.throughput, 1.0, 0.05);
    BenchmarkRow unshaped = deepPrompt;
    unshaped.workload = "a-3.88b-q4_0-pp2048@d32768";
    EXPECT_LT(predicted(unshaped) / deepPrompt.throughput, 0.5);

    // Known misses, pinned. Tokens come out 7-16% fast: the model reads 2.35 GB of weights, the
    // file holds 2.35 GiB (2.52 GB; its embeddings kept wider than 4 bits), and the first 4K of
    // depth cost this build twice the bytes they add (at 65% of the weights' rate, 1.3 times). The prompt at depth 0 is
    // 16% slow: the model multiplies all 3.88B weights per prompt token, llama.cpp the tied 262K x 2,560 embedding (17%
    // of them) only for the last token's logits. Attention at depth runs the other way from the Qwen2.5 7B above: the
    // 32K prompt keeps 0.64 of the speed, the model 0.78 (head width 256 against 128).
    for (const char* depth : {"", "@d4096", "@d8192", "@d16384", "@d32768"}) {
        const BenchmarkRow& tg = rows.at(std::string("gemma3-4b-q4_0-tg32") + depth);
        EXPECT_GT(predicted(tg) / tg.throughput, 1.05) << tg.workload;
        EXPECT_LT(predicted(tg) / tg.throughput, 1.25) << tg.workload;
    }
    const BenchmarkRow& prompt = rows.at("gemma3-4b-q4_0-pp2048");
    EXPECT_GT(predicted(prompt) / prompt.throughput, 0.78);
    EXPECT_LT(predicted(prompt) / prompt.throughput, 0.90);
    const double kept = deepPrompt.throughput / prompt.throughput;
    EXPECT_NEAR(kept, 0.642, 0.001);
    EXPECT_GT(predicted(deepPrompt) / predicted(prompt), kept + 0.1);
}

TEST(Validation, SequencesGeneratedTogetherOnADgxSpark) {
    // tests/fixtures/validation/llamacpp-dgx-spark-batched-2025.csv: the same page's
    // llama-batched-bench tables, B sequences each generating 32 tokens after its own prompt of
    // 512, 4096 or 8192 tokens (the row's batch is B). Nothing was fitted on them; the form (each
    // further sequence's multiplies added to the step, not overlapped with its reads) was chosen on
    // the Qwen2.5 7B rows at 512 tokens. docs/performance-model.md, "Several sequences at once".
    const perf::PerfModel model(Catalog::builtin());
    std::map<std::pair<std::string, int>, BenchmarkRow> rows;
    for (const auto& r : validationRows("llamacpp-dgx-spark-batched-2025.csv")) {
        rows[{r.workload, static_cast<int>(*r.batchSize)}] = r;
    }
    ASSERT_EQ(rows.size(), 90u);
    const Gpu& spark = Catalog::builtin().require("DGX Spark");
    const auto ratio = [&](const std::string& workload, int sequences) {
        const BenchmarkRow& r = rows.at({workload, sequences});
        const perf::PerfQuery q = queryFor(r, std::nullopt, false);
        EXPECT_EQ(q.llmSequences, sequences);
        return model.throughput(spark, q) / r.throughput;
    };
    // The dense Qwen2.5 7B Q8_0: the weights read once for all, each sequence's KV cache and
    // multiplies added: from 10% slow (32 sequences after 8K tokens) to 16% fast at every depth and
    // batch (2-21% fast with the cache read at the weights' rate).
    for (const char* depth : {"@d512", "@d4096", "@d8192"}) {
        const std::string w = std::string("qwen2.5-7b-q8_0-tg32") + depth;
        for (int b : {1, 2, 4, 8, 16, 32}) {
            EXPECT_GT(ratio(w, b), 0.88) << w << " x" << b;
            EXPECT_LT(ratio(w, b), 1.18) << w << " x" << b;
        }
    }
    // 32 sequences at 512 tokens: 20.3x one sequence's tokens measured, 21.8x in the model.
    const double measuredGain =
        rows.at({"qwen2.5-7b-q8_0-tg32@d512", 32}).throughput / rows.at({"qwen2.5-7b-q8_0-tg32@d512", 1}).throughput;
    EXPECT_NEAR(measuredGain, 20.3, 0.05);
    EXPECT_NEAR(ratio("qwen2.5-7b-q8_0-tg32@d512", 32) / ratio("qwen2.5-7b-q8_0-tg32@d512", 1) * measuredGain, 21.8,
                0.1);

    // Known misses, pinned. Gemma 3 4B's KV cache reads (head width 256) ran at about a third of
    // the bandwidth in this build (its tokens at depth above), so 2 to 32 sequences come out
    // 16-41% fast (31-88% with the cache read at the weights' rate). The mixtures of experts: the tool feeds every
    // sequence the same token, so the sequences route alike, where the model takes independent requests (gpt-oss 120B:
    // 32 sequences read 64% of the experts): 15-41% slow at 16 and 32 sequences.
    for (int b : {2, 4, 8, 16, 32}) {
        EXPECT_GT(ratio("gemma3-4b-q4_0-tg32@d512", b), 1.25) << b;
    }
    EXPECT_LT(ratio("gpt-oss-120b-mxfp4-tg32@d512", 32), 0.7);
    EXPECT_LT(ratio("qwen3-30b-a3b-q8_0-tg32@d512", 32), 0.8);
}

TEST(Validation, TokensOfAMicrobatchOnAnRtx4090) {
    // tests/fixtures/validation/llamacpp-rtx4090-microbatch-2025.csv: a prompt read N tokens at a
    // time (llama.cpp's microbatch) reads the weights once for N tokens, as N sequences do; its
    // cache is one sequence's, small at 512 tokens. A second card and build for the term of
    // several sequences, read after it was written: 4-11% slow (Q4_0's 4.5 bits read as Q4_K_M's
    // 4.85 account for about 6%; the model reads the one cache once per token of the microbatch,
    // at 65% of the weights' rate, which takes 2-3 points more than at the weights' rate).
    const perf::PerfModel model(Catalog::builtin());
    const auto rows = validationRows("llamacpp-rtx4090-microbatch-2025.csv");
    ASSERT_EQ(rows.size(), 7u);
    for (const auto& r : rows) {
        const double ratio =
            model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput;
        EXPECT_GT(ratio, 0.88) << *r.batchSize;
        EXPECT_LT(ratio, 1.0) << *r.batchSize;
    }
}

} // namespace
} // namespace advisor::eval
