// The KV cache on the command line: `memory` and `perf --metric llm-decode` size it from a
// model's attention and store it in the format asked for, through the real binary.
#include "cli_runner.h"

#include "common/csv.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

double kvCacheGb(const nlohmann::json& memoryDoc) {
    for (const auto& item : memoryDoc.at("breakdown")) {
        if (item.at("item") == "KV cache") {
            return item.at("gb").get<double>();
        }
    }
    return -1;
}

TEST(KvCacheCli, MemoryStoresTheCacheInTheFormatAsked) {
    Cli cli;
    const auto f16 = cli.json({"memory", "--model", "llama-3.1-8b", "--context", "131072"});
    EXPECT_EQ(f16.at("kv_cache"), "f16");
    EXPECT_NEAR(kvCacheGb(f16), 17.18, 0.005); // 128 KiB per token
    const auto q8 = cli.json({"memory", "--model", "llama-3.1-8b", "--context", "131072", "--kv-cache", "q8_0"});
    EXPECT_EQ(q8.at("kv_cache"), "q8_0");
    EXPECT_NEAR(kvCacheGb(q8), 17.18 * 34 / 64, 0.005);
    EXPECT_LT(q8.at("per_gpu_gb").get<double>(), f16.at("per_gpu_gb").get<double>() - 8);
    const auto text = cli.run({"memory", "--model", "llama-3.1-8b", "--context", "131072", "--kv-cache", "q4_0"});
    EXPECT_NE(text.out.find("x 0.5625 bytes (q4_0)"), std::string::npos) << text.out;
    // Training keeps no KV cache; a format nobody stores in is refused by name.
    const auto training = cli.run({"memory", "--params-billion", "7", "--mode", "lora", "--kv-cache", "q8_0"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--kv-cache sizes inference's KV cache; training keeps none"), std::string::npos)
        << training.err;
    const auto bad = cli.run({"memory", "--params-billion", "7", "--kv-cache", "q3"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--kv-cache must be f16, fp8, q8_0 or q4_0, got 'q3'"), std::string::npos) << bad.err;
}

TEST(KvCacheCli, MemoryReadsAPromptInChunksWhenAsked) {
    Cli cli;
    const auto whole = cli.json({"memory", "--model", "llama-3.1-8b", "--context", "131072", "--precision", "int4"});
    EXPECT_TRUE(whole.at("prefill_chunk_tokens").is_null());
    const auto chunked = cli.json({"memory", "--model", "llama-3.1-8b", "--context", "131072", "--precision", "int4",
                                   "--prefill-chunk", "512"});
    EXPECT_EQ(chunked.at("prefill_chunk_tokens"), 512);
    // 4.3 GB of activations become 17 MB: 27.3 GB per GPU become 23.0.
    EXPECT_NEAR(whole.at("per_gpu_gb").get<double>() - chunked.at("per_gpu_gb").get<double>(),
                (131072.0 - 512) * 4096 * 8 / 1e9, 1e-6);
    const auto text = cli.run({"memory", "--model", "llama-3.1-8b", "--context", "131072", "--prefill-chunk", "512",
                               "--no-flash-attention"});
    EXPECT_NE(text.out.find("for 512 prompt tokens at a time"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("32 heads x 512 x 131,072 positions x 4 bytes (fp32 softmax)"), std::string::npos)
        << text.out;
    const auto training = cli.run({"memory", "--params-billion", "7", "--mode", "qlora", "--prefill-chunk", "512"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--prefill-chunk sizes how inference reads a prompt"), std::string::npos)
        << training.err;
    EXPECT_EQ(cli.run({"memory", "--params-billion", "7", "--prefill-chunk", "0"}).exitCode, 2);
}

TEST(KvCacheCli, MemoryFollowsHeadWidthAndSlidingWindows) {
    Cli cli;
    const auto gemma = cli.json({"memory", "--model", "gemma-3-12b", "--context", "131072"});
    EXPECT_EQ(gemma.at("shape").at("head_dim"), 256);
    // 8 full layers x 131,072 tokens + 40 window layers x 1,024, each 8 KV heads x 256 x K and V.
    EXPECT_NEAR(kvCacheGb(gemma), 2.0 * 8 * 256 * (8 * 131072.0 + 40 * 1024.0) * 2 / 1e9, 1e-6);
    const auto narrow = cli.json({"memory", "--params-billion", "8", "--head-dim", "64", "--context", "1000"});
    EXPECT_EQ(narrow.at("shape").at("head_dim"), 64);
    EXPECT_EQ(narrow.at("shape_basis"), "given shape");
    EXPECT_EQ(cli.run({"memory", "--params-billion", "8", "--head-dim", "4"}).exitCode, 2);
}

TEST(KvCacheCli, AHybridModelCachesItsFullLayersAndKeepsAFixedState) {
    // Qwen3.5 27B: 16 of 64 layers attend (4 KV heads of 256), 48 keep a Gated DeltaNet state.
    Cli cli;
    const auto doc = cli.json({"memory", "--model", "qwen3.5-27b", "--context", "262144", "--precision", "int4"});
    EXPECT_NEAR(kvCacheGb(doc), 17.18, 0.005);
    double state = -1;
    for (const auto& item : doc.at("breakdown")) {
        state = item.at("item") == "recurrent state" ? item.at("gb").get<double>() : state;
    }
    EXPECT_NEAR(state, 0.157, 0.0005);
    const auto sized = cli.json({"memory", "--params-billion", "27", "--context", "262144", "--precision", "int4"});
    EXPECT_GT(kvCacheGb(sized), 3 * kvCacheGb(doc)); // the size law's 64 caching layers
    const auto perf = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "qwen3.5-27b",
                               "--weights", "int4", "--context", "4096"});
    EXPECT_NE(perf.out.find("with 0.16 GB of linear-attention state, the same at any context"), std::string::npos)
        << perf.out;
}

TEST(KvCacheCli, TokenGenerationReadsTheModelsOwnCacheInItsFormat) {
    Cli cli;
    const auto speed = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--context", "32768"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto doc = cli.json(args);
        return doc.at("predictions").at(0);
    };
    const auto f16 = speed({"--model", "qwen2.5-7b"});
    EXPECT_EQ(f16.at("llm").at("kv_cache"), "f16");
    const auto q8 = speed({"--model", "qwen2.5-7b", "--kv-cache", "q8_0"});
    EXPECT_EQ(q8.at("llm").at("kv_cache"), "q8_0");
    EXPECT_GT(q8.at("throughput").get<double>(), f16.at("throughput").get<double>());
    // Qwen2.5 7B's 4 KV heads over 28 layers keep less than the size law's estimate for 7.6B.
    const auto bySize = speed({"--params-billion", "7.6"});
    EXPECT_GT(f16.at("throughput").get<double>(), 1.2 * bySize.at("throughput").get<double>());
    bool saysWhatItReads = false;
    for (const auto& n : f16.at("notes")) {
        saysWhatItReads |= n.get<std::string>().find("GB of KV cache (32,768 tokens of context, f16, the model's own "
                                                     "attention shape)") != std::string::npos;
    }
    EXPECT_TRUE(saysWhatItReads) << f16.at("notes").dump();
    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--kv-cache", "q4_0"});
    EXPECT_NE(human.out.find("512 tokens of context in a q4_0 KV cache)"), std::string::npos) << human.out;
    // A KV cache belongs to LLM inference; a bad format is named.
    const auto training = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--kv-cache", "q8_0"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--kv-cache, --sequences, --min-sequence-speed, --ubatch and --engine describe an LLM"),
              std::string::npos)
        << training.err;
    const auto bad = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--kv-cache", "int2"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--kv-cache must be f16, fp8, q8_0 or q4_0, got 'int2'"), std::string::npos) << bad.err;
}

TEST(KvCacheCli, TokenGenerationReadsAModelsOwnFourBitFileAtTheBitsOfEachPart) {
    // gpt-oss-120b in int4 is llama.cpp's MXFP4 file, 4.34 bits per parameter in all, with the
    // weights every token uses (attention, router, output head) in Q8_0. Of the 5.1B active
    // parameters those are 116.8 - 128 x (116.8 - 5.1) / 124 = 1.50B at 8.5 bits (1.59 GB), and
    // the four experts' 3.60B take the 4.29 bits the file leaves them (1.93 GB): 3.52 GB of
    // weights a token, more than the 5.1B at Q4_K_M's 4.85 bits (3.09 GB) a model known only by
    // its sizes reads.
    const double expert = (116.8 - 5.1) / 124;
    const double shared = 116.8 - 128 * expert;
    const double expertBits = (116.8 * 4.34 - shared * 8.5) / (128 * expert);
    const double weightGb = (shared * 8.5 + 4 * expert * expertBits) / 8;
    ASSERT_NEAR(weightGb, 3.52, 0.005);
    Cli cli;
    const auto named = cli.json({"perf", "--gpu", "H100 SXM5", "--metric", "llm-decode", "--model", "gpt-oss-120b"});
    const auto bySize = cli.json({"perf", "--gpu", "H100 SXM5", "--metric", "llm-decode", "--params-billion", "116.8",
                                  "--active-params-billion", "5.1"});
    const auto tokens = [](const nlohmann::json& doc) {
        return doc.at("predictions").at(0).at("throughput").get<double>();
    };
    EXPECT_LT(tokens(named), 0.97 * tokens(bySize));
    bool reads = false;
    bool saysWhy = false;
    for (const auto& n : named.at("predictions").at(0).at("notes")) {
        reads |= n.get<std::string>().find("3.52 GB of weights") != std::string::npos;
        saysWhy |= n.get<std::string>().find("its file keeps the 1.50B every token uses (attention, router, output "
                                             "head) at 8.5 bits per weight and the experts at 4.29") !=
                   std::string::npos;
    }
    EXPECT_TRUE(reads) << named.at("predictions").at(0).at("notes").dump();
    EXPECT_TRUE(saysWhy) << named.at("predictions").at(0).at("notes").dump();
}

TEST(KvCacheCli, DepthIsWhatTheCacheHoldsBeforeThePromptOrTheReply) {
    Cli cli;
    const auto predict = [&](const char* metric, const char* context, const char* depth) {
        const auto doc = cli.json({"perf", "--gpu", "RTX 3090", "--metric", metric, "--model", "llama-3.1-8b",
                                   "--context", context, "--depth", depth});
        return doc.at("predictions").at(0);
    };
    // A reply after a 32,768-token chat reads the same cache as one at 32,896 tokens of context.
    const auto afterChat = predict("llm-decode", "128", "32768");
    EXPECT_EQ(afterChat.at("llm").at("depth_tokens"), 32768);
    EXPECT_DOUBLE_EQ(afterChat.at("throughput").get<double>(),
                     predict("llm-decode", "32896", "0").at("throughput").get<double>());
    // A prompt's time per token grows linearly with the depth it attends to (llama-bench's
    // pp512@d16384 and @d32768): equal steps in depth add equal time.
    const auto seconds = [&](const char* depth) {
        return 1.0 / predict("llm-prefill", "512", depth).at("throughput").get<double>();
    };
    const double step1 = seconds("16384") - seconds("0");
    const double step2 = seconds("32768") - seconds("16384");
    EXPECT_GT(step1, 0.1 * seconds("0"));
    EXPECT_NEAR(step2 / step1, 1.0, 1e-9);
    const auto human = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-prefill", "--depth", "32768"});
    EXPECT_NE(human.out.find("512 tokens of context after 32,768 in the cache)"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("for a 512-token prompt after 32,768 tokens in the cache"), std::string::npos)
        << human.out;
    const auto training = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "fp16-training", "--depth", "4096"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find(
                  "--depth, --kv-cache, --sequences, --min-sequence-speed, --ubatch and --engine describe an LLM"),
              std::string::npos)
        << training.err;
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-prefill", "--depth", "-5"}).exitCode, 2);
}

TEST(KvCacheCli, SequencesGeneratingTogetherShareTheWeightsReads) {
    Cli cli;
    const auto predict = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--context", "2048"};
        args.insert(args.end(), extra.begin(), extra.end());
        return cli.json(args).at("predictions").at(0);
    };
    const auto one = predict({"--model", "llama-3.1-8b"});
    EXPECT_EQ(one.at("llm").at("sequences"), 1);
    EXPECT_DOUBLE_EQ(one.at("tokens_per_s_per_sequence").get<double>(), one.at("throughput").get<double>());
    const auto sixteen = predict({"--model", "llama-3.1-8b", "--sequences", "16"});
    EXPECT_EQ(sixteen.at("llm").at("sequences"), 16);
    const double together = sixteen.at("throughput").get<double>();
    EXPECT_DOUBLE_EQ(sixteen.at("tokens_per_s_per_sequence").get<double>(), together / 16);
    // 4.85 GB of weights read once, 16 x 0.27 GB of cache: about 9x one sequence's tokens, each
    // sequence slower than alone.
    EXPECT_GT(together, 8 * one.at("throughput").get<double>());
    EXPECT_LT(together / 16, one.at("throughput").get<double>());
    bool factor = false;
    for (const auto& f : sixteen.at("factors")) {
        if (f.at("name") == "16 sequences at once") {
            factor = true;
            EXPECT_NEAR(f.at("effect").get<double>(), together / one.at("throughput").get<double>(), 1e-9);
        }
    }
    EXPECT_TRUE(factor) << sixteen.at("factors").dump();
    bool note = false;
    for (const auto& n : sixteen.at("notes")) {
        note |= n.get<std::string>().find("each step of 16 sequences reads 9.14 GB: 4.85 GB of weights and 16 x "
                                          "0.27 GB of KV cache") != std::string::npos;
    }
    EXPECT_TRUE(note) << sixteen.at("notes").dump();
    // A mixture of experts: 8 independent requests read 90% of Mixtral's experts (1 - (6/8)^8).
    const auto mixtral = predict({"--model", "mixtral-8x7b", "--sequences", "8"});
    EXPECT_NE(mixtral.at("factors").dump().find("90% of them here (independent requests: 1 - (1 - 2/8)^8)"),
              std::string::npos)
        << mixtral.at("factors").dump();
    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--sequences", "4"});
    EXPECT_NE(human.out.find(", 4 sequences at once): "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find(" for each of 4 sequences)"), std::string::npos) << human.out;

    const auto prompt = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--sequences", "4"});
    EXPECT_EQ(prompt.exitCode, 2);
    EXPECT_NE(prompt.err.find("--sequences is for token generation (--metric llm-decode)"), std::string::npos)
        << prompt.err;
    const auto none = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--sequences", "0"});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("option '--sequences' must be a whole number from 1 to 65536 or max (as many as each "
                            "card's memory holds), got '0'"),
              std::string::npos)
        << none.err;
}

// `perf` of Llama 3.1 8B's token generation at 8,192 tokens with as many sequences as fit on `gpu`.
nlohmann::json fullLoad8b(const Cli& cli, const char* gpu) {
    return cli
        .json({"perf", "--gpu", gpu, "--metric", "llm-decode", "--model", "llama-3.1-8b", "--context", "8192",
               "--sequences", "max"})
        .at("predictions")
        .at(0);
}

TEST(KvCacheCli, SequencesMaxFillsEachCardsMemory) {
    // Llama 3.1 8B at 4.85 bits with 8,192 tokens of f16 cache each (1.07 GB): 90% of 24 GB
    // holds 15 beside the weights, 90% of 80 GB 62.
    Cli cli;
    const auto small = fullLoad8b(cli, "RTX 4090");
    EXPECT_EQ(small.at("llm").at("sequences"), 15);
    EXPECT_EQ(small.at("llm").at("sequences_fill_memory"), true);
    EXPECT_DOUBLE_EQ(small.at("tokens_per_s_per_sequence").get<double>(), small.at("throughput").get<double>() / 15);
    const auto fixed = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "llama-3.1-8b",
                                 "--context", "8192", "--sequences", "15"})
                           .at("predictions")
                           .at(0);
    EXPECT_DOUBLE_EQ(small.at("throughput").get<double>(), fixed.at("throughput").get<double>());
    EXPECT_EQ(fixed.at("llm").at("sequences_fill_memory"), false);
    EXPECT_EQ(fullLoad8b(cli, "H100 SXM5").at("llm").at("sequences"), 62);

    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "llama-3.1-8b",
                                "--context", "8192", "--sequences", "MAX"});
    EXPECT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find(", as many sequences at once as fit): "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find(" for each of 15 sequences)"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("note: as many sequences as fit: 15, each with 1.07 GB of KV cache"), std::string::npos)
        << human.out;
    const auto prompt = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--sequences", "max"});
    EXPECT_EQ(prompt.exitCode, 2);
    EXPECT_NE(prompt.err.find("--sequences is for token generation"), std::string::npos) << prompt.err;
}

TEST(KvCacheCli, AChartAtFullLoadGivesEachCardsSequencesInItsCsv) {
    Cli cli;
    const auto chart = cli.run({"chart", "--metric", "llm-decode", "--model", "llama-3.1-8b", "--context", "8192",
                                "--sequences", "max", "--reference", "RTX 4090", "--out", cli.file("full.csv")});
    ASSERT_EQ(chart.exitCode, 0) << chart.err;
    const csv::Table table = csv::read(cli.read("full.csv"), "full.csv");
    ASSERT_EQ(table.header.back(), "sequences");
    const auto column = [&](const char* name) {
        return size_t(std::find(table.header.begin(), table.header.end(), name) - table.header.begin());
    };
    const auto rtx4090 = fullLoad8b(cli, "RTX 4090");
    const auto h100 = fullLoad8b(cli, "H100 SXM5");
    int seen = 0;
    for (const auto& row : table.rows) {
        const std::string gpu = row.fields[column("gpu")];
        if (gpu == "RTX 4090") {
            ++seen;
            EXPECT_EQ(row.fields[column("sequences")], "15");
            EXPECT_EQ(row.fields[column("relative_llm-decode")], "1");
        }
        if (gpu == "H100 SXM5") {
            ++seen;
            EXPECT_EQ(row.fields[column("sequences")], "62");
            EXPECT_NEAR(std::stod(row.fields[column("relative_llm-decode")]),
                        h100.at("throughput").get<double>() / rtx4090.at("throughput").get<double>(), 1e-9);
        }
    }
    EXPECT_EQ(seen, 2);
    // A fixed count adds no column.
    ASSERT_EQ(cli.run({"chart", "--metric", "llm-decode", "--sequences", "4", "--out", cli.file("four.csv")}).exitCode,
              0);
    EXPECT_EQ(csv::read(cli.read("four.csv"), "four.csv").header.back(), "highlighted");

    // The value table gives the same counts.
    const std::vector<std::string> value = {"value", "--metric", "llm-decode", "--model", "llama-3.1-8b", "--context",
                                            "8192", "--sequences", "max"};
    bool sawValueRow = false;
    const auto valueDoc = cli.json(value);
    for (const auto& r : valueDoc.at("rows")) {
        if (r.at("gpu") == "RTX 4090") {
            sawValueRow = true;
            EXPECT_EQ(r.at("sequences"), 15);
        }
    }
    EXPECT_TRUE(sawValueRow);
    const auto text = cli.run(value);
    EXPECT_NE(text.out.find("REL. PERF  SEQUENCES  PERF/$"), std::string::npos) << text.out;
    EXPECT_TRUE(cli.json({"value", "--metric", "llm-decode"}).at("rows").at(0).at("sequences").is_null());
}

// --min-sequence-speed: of the sequences that fit, the most that each still get that many tokens/s,
// which is what perf gives for that many sequences asked by number, and one more would not get it.
TEST(KvCacheCli, MinSequenceSpeedServesTheMostThatEachStillGetIt) {
    Cli cli;
    const std::vector<std::string> base = {"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model",
                                           "llama-3.1-8b", "--context", "2048"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli.json(args).at("predictions").at(0);
    };
    const auto served = with({"--min-sequence-speed", "30"});
    const int n = served.at("llm").at("sequences").get<int>();
    EXPECT_EQ(served.at("llm").at("min_sequence_speed"), 30.0);
    EXPECT_EQ(served.at("llm").at("sequences_fill_memory"), true);
    EXPECT_GE(served.at("tokens_per_s_per_sequence").get<double>(), 30.0);
    const int fit = with({"--sequences", "max"}).at("llm").at("sequences").get<int>();
    ASSERT_GT(n, 1);
    ASSERT_LT(n, fit); // the speed, not the memory, stops it here
    EXPECT_DOUBLE_EQ(with({"--sequences", std::to_string(n)}).at("throughput").get<double>(),
                     served.at("throughput").get<double>());
    EXPECT_LT(with({"--sequences", std::to_string(n + 1)}).at("tokens_per_s_per_sequence").get<double>(), 30.0);
    EXPECT_EQ(with({"--sequences", "max", "--min-sequence-speed", "30"}).at("llm").at("sequences"), n);
    EXPECT_TRUE(with({"--sequences", "max"}).at("llm").at("min_sequence_speed").is_null());

    // The value table ranks each card at its own count.
    bool sawRow = false;
    const auto valueDoc = cli.json(
        {"value", "--metric", "llm-decode", "--model", "llama-3.1-8b", "--context", "2048", "--min-sequence-speed", "30"});
    for (const auto& r : valueDoc.at("rows")) {
        if (r.at("gpu") == "RTX 4090") {
            sawRow = true;
            EXPECT_EQ(r.at("sequences"), n);
        }
    }
    EXPECT_TRUE(sawRow);

    // A number of sequences and a speed for each cannot both set the count; a speed must be one.
    std::vector<std::string> both = base;
    both.insert(both.end(), {"--sequences", "8", "--min-sequence-speed", "30"});
    const auto conflict = cli.run(both);
    EXPECT_EQ(conflict.exitCode, 2);
    EXPECT_NE(conflict.err.find("--min-sequence-speed sets how many sequences"), std::string::npos) << conflict.err;
    const auto prompt = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--min-sequence-speed", "30"});
    EXPECT_EQ(prompt.exitCode, 2);
    EXPECT_NE(prompt.err.find("--min-sequence-speed is for token generation"), std::string::npos) << prompt.err;
    std::vector<std::string> bad = base;
    bad.insert(bad.end(), {"--min-sequence-speed", "fast"});
    const auto refused = cli.run(bad);
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("--min-sequence-speed"), std::string::npos) << refused.err;
}

TEST(PromptCli, UbatchIsThePromptTokensEachStepMultiplies) {
    // gpt-oss-120b on Strix Halo: at llama.cpp's default 512 a step gives the 65% of the experts
    // its tokens pick 24.7 tokens each, which llama.cpp's quantized matmul pads to a tile of 128;
    // at 2,048 each gets 66 (--ubatch).
    Cli cli;
    const std::vector<std::string> base = {"perf", "--gpu", "Ryzen AI Max+ 395", "--metric", "llm-prefill",
                                           "--model", "gpt-oss-120b", "--context", "4096", "--json"};
    const auto at512 = cli.json(base).at("predictions").at(0);
    auto with2048 = base;
    with2048.insert(with2048.end(), {"--ubatch", "2048"});
    const auto at2048 = cli.json(with2048).at("predictions").at(0);
    EXPECT_EQ(at512.at("llm").at("micro_batch_tokens"), 512);
    EXPECT_EQ(at2048.at("llm").at("micro_batch_tokens"), 2048);
    EXPECT_GT(at2048.at("throughput").get<double>() / at512.at("throughput").get<double>(), 2.0);
    const auto text = cli.run({"perf", "--gpu", "Ryzen AI Max+ 395", "--metric", "llm-prefill", "--model",
                               "gpt-oss-120b"});
    EXPECT_NE(text.out.find("routed experts' matmul tiles: x0.3"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("about 24.7 of them"), std::string::npos) << text.out;
    // Token generation has no micro-batch; a step of no tokens is no step.
    const auto decode = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--ubatch", "1024"});
    EXPECT_EQ(decode.exitCode, 2);
    EXPECT_NE(decode.err.find("--ubatch is for prompt processing (--metric llm-prefill)"), std::string::npos)
        << decode.err;
    const auto zero = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--ubatch", "0"});
    EXPECT_EQ(zero.exitCode, 2);
    EXPECT_NE(zero.err.find("'--ubatch' must be a whole number from 1"), std::string::npos) << zero.err;
}

} // namespace
} // namespace advisor::testing
