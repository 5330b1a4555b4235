// `gpu-advisor chart` through the real binary: files opened and checked, numbers compared
// with the `perf` command, errors, and no display needed.
#include "cli_runner.h"

#include "common/csv.h"
#include "common/file_io.h"
#include "common/text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace advisor::testing {
namespace {

uint32_t bigEndian32(const std::string& s, size_t at) {
    return (uint32_t(uint8_t(s[at])) << 24) | (uint32_t(uint8_t(s[at + 1])) << 16) |
           (uint32_t(uint8_t(s[at + 2])) << 8) | uint32_t(uint8_t(s[at + 3]));
}

TEST(ChartCli, PngAtAnySizeWithoutADisplay) {
    Cli cli;
    const std::string out = cli.file("raw.png");
    // No display at all: neither DISPLAY, WAYLAND_DISPLAY nor QT_QPA_PLATFORM.
    const auto r = runProcess(GPU_ADVISOR_BIN,
                              {"--db", cli.db(), "chart", "--out", out, "--width", "700", "--height", "900", "--scale", "1.5"},
                              {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string png = cli.read("raw.png");
    ASSERT_GT(png.size(), 24u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(bigEndian32(png, 16), 1050u);
    EXPECT_EQ(bigEndian32(png, 20), 1350u);
}

TEST(ChartCli, ANarrowChartIsTallerByTheLinesItsWordsWrapTo) {
    // Without --height the chart is as tall as its rows need, plus the lines that the
    // subtitle, notes and axis title wrap to at a narrow width; every GPU row keeps its height.
    Cli cli;
    const auto heightAt = [&cli](const char* width) {
        const auto doc = cli.json({"chart", "--kind", "perf-per-dollar", "--min-memory", "24", "--width", width, "--out",
                                   cli.file(std::string("w") + width + ".png")});
        const std::string png = cli.read(std::string("w") + width + ".png");
        EXPECT_EQ(bigEndian32(png, 20), doc.at("height").get<uint32_t>()); // the file is as tall as reported
        return doc.at("height").get<int>();
    };
    const int wide = heightAt("2000");
    const int narrow = heightAt("480");
    EXPECT_GE(narrow - wide, 30) << "wide " << wide << ", narrow " << narrow; // at least two more lines
    EXPECT_LE(narrow - wide, 120);
    EXPECT_GT(heightAt("1400"), wide); // the notes under the chart take two lines there
    EXPECT_EQ(heightAt("2600"), wide); // nothing wraps beyond 2,000 px
}

TEST(ChartCli, VectorPdfAndSvg) {
    Cli cli;
    ASSERT_EQ(cli.run({"chart", "--kind", "perf-per-dollar", "--out", cli.file("ppd.pdf")}).exitCode, 0);
    const std::string pdf = cli.read("ppd.pdf");
    EXPECT_EQ(pdf.rfind("%PDF-1.", 0), 0u);
    EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
    EXPECT_EQ(pdf.find("/Subtype /Image"), std::string::npos);
    ASSERT_EQ(cli.run({"chart", "--min-memory", "24", "--out", cli.file("raw.svg")}).exitCode, 0);
    const std::string svg = cli.read("raw.svg");
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_NE(svg.find("RTX 3090"), std::string::npos);
    EXPECT_EQ(svg.find(">RTX 4070 Ti<"), std::string::npos); // 12 GB: filtered out
}

TEST(ChartCli, CsvNumbersAreTheModelsAndTheFiltersApply) {
    Cli cli;
    const auto doc = cli.json({"chart", "--out", cli.file("raw.csv"), "--min-memory", "24", "--vendor", "nvidia",
                               "--highlight", "RTX 3090", "--with-fp32"});
    const auto table = csv::read(cli.read("raw.csv"), "raw.csv");
    ASSERT_EQ(table.rows.size(), doc.at("rows").get<size_t>());
    ASSERT_EQ(table.header.at(8), "relative_fp16-training");
    ASSERT_EQ(table.header.at(9), "relative_fp32-training");
    double previous = 1e9;
    bool sawHighlight = false;
    for (const auto& row : table.rows) {
        EXPECT_GE(text::parseNumber(row.fields[2]).value.value(), 24);
        const double train = text::parseNumber(row.fields[8]).value.value();
        EXPECT_LE(train, previous); // sorted by 16-bit training
        previous = train;
        sawHighlight |= row.fields[1] == "rtx-3090" && row.fields.back() == "yes";
        if (row.fields[1] == "rtx-3090") {
            // The same number through a different path: `perf`.
            const auto perf = cli.json({"perf", "--gpu", "RTX 3090", "--metric", "fp16-training"});
            const double expected = perf.at("predictions").at(0).at("relative_to_reference").get<double>();
            EXPECT_NEAR(train, expected, 1e-12);
        }
    }
    EXPECT_TRUE(sawHighlight);
    for (const auto& id : doc.at("gpu_ids")) {
        EXPECT_NE(id.get<std::string>().rfind("rx-", 0), 0u); // vendor filter: no AMD
    }
}

TEST(ChartCli, SeveralGpusPerSetupAreValuesSetups) {
    // --gpus 4: the bars are `value --gpus 4`'s setups, relative to four of the reference.
    Cli cli;
    const auto doc = cli.json({"chart", "--out", cli.file("four.csv"), "--gpus", "4", "--metric", "fp16-training"});
    EXPECT_NE(doc.at("title").get<std::string>().find("4 GPUs per setup"), std::string::npos) << doc.at("title");
    const auto table = csv::read(cli.read("four.csv"), "four.csv");
    const auto value = cli.json({"value", "--gpus", "4", "--metric", "fp16-training", "--all"});
    std::map<std::string, double> byGpu;
    for (const auto& r : value.at("rows")) {
        byGpu[r.at("gpu").get<std::string>()] = r.at("relative_performance").get<double>();
    }
    ASSERT_FALSE(table.rows.empty());
    for (const auto& row : table.rows) {
        ASSERT_EQ(byGpu.count(row.fields[0]), 1u) << row.fields[0];
        EXPECT_NEAR(text::parseNumber(row.fields[8]).value.value(), byGpu[row.fields[0]], 1e-12) << row.fields[0];
    }
    // value's own header says so too (it read "4 GPUs; ... relative to RTX 4090").
    const auto text = cli.run({"value", "--gpus", "4", "--metric", "fp16-training"});
    EXPECT_NE(text.out.find("; relative to 4 x RTX 4090\n"), std::string::npos) << text.out;
    const auto nine = cli.run({"chart", "--out", cli.file("nine.csv"), "--gpus", "9"});
    EXPECT_EQ(nine.exitCode, 2);
    EXPECT_NE(nine.err.find("'--gpus' must be a whole number from 1 to 8, got '9'"), std::string::npos) << nine.err;
    EXPECT_FALSE(std::filesystem::exists(cli.file("nine.csv")));
}

TEST(ChartCli, SparseWeightsAreOffByDefaultAndTheSameNumbersAsPerf) {
    Cli cli;
    const auto sparse = cli.json({"chart", "--out", cli.file("sparse.csv"), "--sparsity"});
    const auto dense = cli.json({"chart", "--out", cli.file("dense.csv")});
    EXPECT_EQ(sparse.at("title"), "Relative deep learning performance (transformer, 2:4 sparse weights)");
    EXPECT_EQ(dense.at("title"), "Relative deep learning performance (transformer)");
    const auto fp16Training = [&](const std::string& file, const std::string& id) {
        const auto table = csv::read(cli.read(file), file);
        EXPECT_EQ(table.header.at(8), "relative_fp16-training");
        for (const auto& row : table.rows) {
            if (row.fields[1] == id) {
                return text::parseNumber(row.fields[8]).value.value();
            }
        }
        ADD_FAILURE() << id << " not in " << file;
        return 0.0;
    };
    const auto perfRelative = [&](const char* gpu, bool sparsity) {
        std::vector<std::string> args = {"perf", "--gpu", gpu, "--metric", "fp16-training"};
        if (sparsity) {
            args.push_back("--sparsity");
        }
        const auto p = cli.json(args).at("predictions").at(0);
        EXPECT_EQ(p.at("sparsity_2_4").get<bool>(), sparsity);
        return p.at("relative_to_reference").get<double>();
    };
    EXPECT_NEAR(fp16Training("sparse.csv", "rtx-3090"), perfRelative("RTX 3090", true), 1e-12);
    EXPECT_NEAR(fp16Training("dense.csv", "rtx-3090"), perfRelative("RTX 3090", false), 1e-12);
    // The reference (RTX 4090) has sparse tensor cores, the RTX 2080 Ti has none: it falls behind.
    EXPECT_LT(fp16Training("sparse.csv", "rtx-2080-ti"), fp16Training("dense.csv", "rtx-2080-ti"));
    EXPECT_DOUBLE_EQ(fp16Training("sparse.csv", "rtx-4090"), 1.0);
}

TEST(ChartCli, ALanguageModelWorkload) {
    Cli cli;
    const auto doc = cli.json({"chart", "--out", cli.file("llm.csv"), "--workload", "llm"});
    EXPECT_EQ(doc.at("title"), "Relative deep learning performance (language model, 8B)");
    const auto bad = cli.run({"chart", "--out", cli.file("bad.csv"), "--workload", "vision"});
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("--workload must be transformer, cnn, rnn, recsys or llm"), std::string::npos) << bad.err;
}

TEST(ChartCli, LlmInferenceInTokensPerSecondForTheGpusThatHoldTheModel) {
    Cli cli;
    const auto doc = cli.json({"chart", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--out",
                               cli.file("llm.csv")});
    EXPECT_EQ(doc.at("title"), "Relative LLM inference speed (70B parameters, int4 weights, 512 tokens of context)");
    const auto table = csv::read(files::readAll(cli.file("llm.csv")), "llm.csv");
    EXPECT_NE(std::find(table.header.begin(), table.header.end(), "relative_llm-decode"), table.header.end());
    EXPECT_NE(std::find(table.header.begin(), table.header.end(), "relative_llm-prefill"), table.header.end());
    ASSERT_FALSE(table.rows.empty());
    const size_t memory = static_cast<size_t>(std::find(table.header.begin(), table.header.end(), "memory_gb") -
                                              table.header.begin());
    for (const auto& row : table.rows) {
        EXPECT_GE(std::stod(row.fields.at(memory)), 42.6) << row.fields.at(0); // 70B weights and KV cache, 4-bit
    }
    bool said = false;
    for (const auto& n : doc.at("notes")) {
        said |= n.get<std::string>().find("left out: too little memory for the model's 42.6 GB") != std::string::npos;
    }
    EXPECT_TRUE(said) << doc.at("notes").dump();
}

TEST(ChartCli, ErrorsNameTheProblemAndWriteNothing) {
    Cli cli;
    EXPECT_EQ(cli.run({"chart", "--out", cli.file("c.gif")}).exitCode, 2);
    EXPECT_EQ(cli.run({"chart", "--kind", "pie", "--out", cli.file("c.png")}).exitCode, 2);
    // LLM inference has its own bars: the training chart's options and the LLM's do not mix.
    const auto mixed = cli.run({"chart", "--metric", "llm-decode", "--with-fp32", "--out", cli.file("c.png")});
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_NE(mixed.err.find("an LLM chart takes --params-billion (or --model)"), std::string::npos) << mixed.err;
    const auto weights = cli.run({"chart", "--weights", "int8", "--out", cli.file("c.png")});
    EXPECT_EQ(weights.exitCode, 2);
    EXPECT_NE(weights.err.find("give --metric llm-decode or llm-prefill"), std::string::npos) << weights.err;
    const auto vendor = cli.run({"chart", "--vendor", "nvidea", "--out", cli.file("c.png")});
    EXPECT_EQ(vendor.exitCode, 1);
    EXPECT_NE(vendor.err.find("--vendor: no GPU in the catalog is made by 'nvidea'"), std::string::npos) << vendor.err;
    const auto theme = cli.run({"chart", "--theme", "blue", "--out", cli.file("c.png")});
    EXPECT_EQ(theme.exitCode, 2);
    EXPECT_NE(theme.err.find("--theme must be light or dark, got 'blue'"), std::string::npos) << theme.err;
    const auto ref = cli.run({"chart", "--reference", "RTX 9999", "--out", cli.file("c.png")});
    EXPECT_EQ(ref.exitCode, 1);
    EXPECT_NE(ref.err.find("--reference"), std::string::npos) << ref.err;
    const std::string missing = cli.file("no/such/dir/c.png");
    const auto bad = cli.run({"chart", "--out", missing});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find(missing + ": cannot write"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(cli.file("c.png")));
    EXPECT_FALSE(std::filesystem::exists(cli.file("c.gif")));
}

} // namespace
} // namespace advisor::testing
