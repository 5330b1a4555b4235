// Tests for core/perf/workload_names: a benchmark's own spelling of a calibration network is
// predicted with that network's fitted profile.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "perf/workload_names.h"
#include "../support/input_problems.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace advisor::perf {
namespace {

std::string namesFile(const std::string& networks) {
    return R"({"format": "gpu-advisor-workload-names", "version": 1, "networks": [
)" + networks + "\n]}";
}

std::vector<std::string> errorsOf(const std::string& text) {
    return testing::problemsOf([&] { parseWorkloadAliases(text, "names.json"); });
}

TEST(WorkloadNames, KeyKeepsOnlyLettersAndDigitsInLowerCase) {
    EXPECT_EQ(workloadNameKey("ResNet-50 v1.5"), "resnet50v15");
    EXPECT_EQ(workloadNameKey("Mask R-CNN"), "maskrcnn");
    EXPECT_EQ(workloadNameKey("bert_large_squad"), "bertlargesquad");
    EXPECT_EQ(workloadNameKey("--"), "");
}

TEST(WorkloadNames, ShippedNamesResolveToTheShippedProfiles) {
    const ModelConstants& c = ModelConstants::builtin();
    // The profile's own name, and spellings that differ only in case and punctuation.
    EXPECT_EQ(profileNameFor("resnet50", c), "resnet50");
    EXPECT_EQ(profileNameFor("ResNet-50", c), "resnet50");
    EXPECT_EQ(profileNameFor("Mask R-CNN", c), "maskrcnn");
    EXPECT_EQ(profileNameFor("Transformer_XL_Large", c), "transformerxllarge");
    // Aliases from resources/perf/workload_names.json.
    EXPECT_EQ(profileNameFor("ResNet-50 v1.5", c), "resnet50");
    EXPECT_EQ(profileNameFor("BERT-Large", c), "bert_large_squad");
    EXPECT_EQ(profileNameFor("bert base", c), "bert_base_squad");
    EXPECT_EQ(profileNameFor("SSD300", c), "ssd");
    EXPECT_EQ(profileNameFor("NeuMF", c), "ncf");
    // Other networks keep their class's shares: MLPerf's SSD-ResNet34 (1200x1200) and BERT
    // inference, a Transformer-XL of unknown size, a network of the user's own.
    EXPECT_EQ(profileNameFor("ssd-resnet34", c), "");
    EXPECT_EQ(profileNameFor("bert-99", c), "");
    EXPECT_EQ(profileNameFor("transformer-xl", c), "");
    EXPECT_EQ(profileNameFor("mynet", c), "");
    EXPECT_EQ(profileNameFor("", c), "");
    // Constants fitted without profiles (hand-written) resolve nothing.
    EXPECT_EQ(profileNameFor("resnet50", ModelConstants{}), "");
}

TEST(WorkloadNames, EveryShippedAliasNamesAShippedProfile) {
    const ModelConstants& c = ModelConstants::builtin();
    ASSERT_FALSE(builtinWorkloadAliases().empty());
    for (const auto& entry : builtinWorkloadAliases()) {
        EXPECT_NE(c.profileFor(entry.profile), nullptr) << entry.profile;
        EXPECT_FALSE(entry.why.empty()) << entry.profile;
        for (const auto& alias : entry.aliases) {
            EXPECT_EQ(profileNameFor(alias, c), entry.profile) << alias;
        }
    }
}

TEST(WorkloadNames, AnAliasOfANetworkTheConstantsLackIsIgnored) {
    ModelConstants c = ModelConstants::builtin();
    const auto aliases = parseWorkloadAliases(
        namesFile(R"({"profile": "vit_large", "aliases": ["ViT-L/16"], "why": "not fitted"},
  {"profile": "gnmt", "aliases": ["seq2seq-de"], "why": "test"})"),
        "names.json");
    EXPECT_EQ(profileNameFor("vit-l-16", c, aliases), "");
    EXPECT_EQ(profileNameFor("Seq2Seq DE", c, aliases), "gnmt");
    EXPECT_EQ(profileNameFor("Seq2Seq DE", c), ""); // not a shipped alias
}

TEST(WorkloadNames, BadEntriesNameTheFileLineAndField) {
    EXPECT_EQ(errorsOf(namesFile(R"(  {"profile": "gnmt", "aliases": ["GNMT v2"]})")),
              (std::vector<std::string>{"names.json:2: network 1: field 'why': is missing; a text value is required"}));
    EXPECT_EQ(errorsOf(namesFile(R"(  {"profile": "gnmt", "aliases": [], "why": "x"})")),
              (std::vector<std::string>{"names.json:2: network 1: field 'aliases': names no other name for gnmt"}));
    EXPECT_EQ(errorsOf(namesFile(R"(  {"profile": "gnmt", "aliases": ["--"], "why": "x"})")),
              (std::vector<std::string>{"names.json:2: network 1: field 'aliases': '--' has no letter or digit"}));
    // One name for two networks would make the profile depend on the order of the file.
    EXPECT_EQ(errorsOf(namesFile(R"(  {"profile": "transformerxlbase", "aliases": ["Transformer-XL"], "why": "x"},
  {"profile": "transformerxllarge", "aliases": ["transformer_xl"], "why": "x"})")),
              (std::vector<std::string>{"names.json:3: network 2: field 'aliases': 'transformer_xl' would name both "
                                        "transformerxlbase and transformerxllarge"}));
    EXPECT_FALSE(errorsOf(R"({"format": "gpu-advisor-prices", "version": 1, "networks": []})").empty());
}

// The same measurements with the networks spelled another way are predicted the same.
TEST(WorkloadNames, EvaluationOfARenamedFileMatchesTheOriginal) {
    const auto original =
        eval::readBenchmarkFile(std::string(ADVISOR_FIXTURES_DIR) + "/validation/lambda-pytorch-train-2023-fp16.csv");
    auto renamed = original;
    const std::map<std::string, std::string> spelling = {{"resnet50", "ResNet-50 v1.5"},
                                                         {"bert_large_squad", "BERT-Large"},
                                                         {"transformerxllarge", "Transformer-XL Large"}};
    size_t changed = 0;
    for (auto& r : renamed) {
        if (const auto it = spelling.find(r.workload); it != spelling.end()) {
            r.workload = it->second;
            ++changed;
        }
    }
    ASSERT_GT(changed, 50u);
    const PerfModel model(Catalog::builtin());
    const auto a = eval::evaluate(original, Catalog::builtin(), model, "A100 80GB SXM4");
    const auto b = eval::evaluate(renamed, Catalog::builtin(), model, "A100 80GB SXM4");
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (size_t i = 0; i < a.rows.size(); ++i) {
        EXPECT_EQ(a.rows[i].profile, b.rows[i].profile) << b.rows[i].row.workload;
        EXPECT_DOUBLE_EQ(a.rows[i].predictedRelative, b.rows[i].predictedRelative) << b.rows[i].row.workload;
    }
    EXPECT_DOUBLE_EQ(a.singleGpu.p90AbsErrorPct, b.singleGpu.p90AbsErrorPct);
    // A name that is no calibration network falls back to the class, and predicts otherwise.
    for (auto& r : renamed) {
        if (r.workload == "ResNet-50 v1.5") {
            r.workload = "my_cnn";
        }
    }
    const auto c = eval::evaluate(renamed, Catalog::builtin(), model, "A100 80GB SXM4");
    size_t differ = 0;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        if (c.rows[i].row.workload == "my_cnn" && c.rows[i].evaluated && !c.rows[i].isReferenceRow) {
            EXPECT_EQ(c.rows[i].profile, "");
            differ += c.rows[i].predictedRelative != a.rows[i].predictedRelative ? 1 : 0;
        }
    }
    EXPECT_GT(differ, 10u);
}

} // namespace
} // namespace advisor::perf
