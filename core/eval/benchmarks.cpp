#include "eval/benchmarks.h"

#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "common/file_io.h"
#include "common/text.h"
#include "perf/constants.h"
#include "perf/workload_names.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace advisor::eval {

std::optional<double> BenchmarkRow::perGpuBatch() const {
    if (!batchSize) {
        return std::nullopt;
    }
    return *batchSize / numGpus;
}

namespace {
// A class that ends in "-inference" (cnn-inference): the class before it, else the whole name.
std::string_view classBeforeInference(std::string_view workloadClass) {
    constexpr std::string_view suffix = "-inference";
    if (workloadClass.size() > suffix.size() && workloadClass.substr(workloadClass.size() - suffix.size()) == suffix) {
        return workloadClass.substr(0, workloadClass.size() - suffix.size());
    }
    return workloadClass;
}
} // namespace

bool BenchmarkRow::isInference() const {
    const std::string_view base = classBeforeInference(workloadClass);
    return base.size() != workloadClass.size() && perf::parseWorkloadClass(base).has_value();
}

std::optional<perf::WorkloadClass> BenchmarkRow::networkClass() const {
    return perf::parseWorkloadClass(classBeforeInference(workloadClass));
}

perf::Metric BenchmarkRow::metric() const {
    if (workloadClass == "llm-decode") {
        return perf::Metric::LlmDecode;
    }
    if (workloadClass == "llm-prefill") {
        return perf::Metric::LlmPrefill;
    }
    if (isInference()) {
        // 16-bit inference in fp16 or bf16, 8-bit in int8, fp8 or int4 (fp32 is refused on reading).
        return perf::isSixteenBit(precision) ? perf::Metric::Fp16Inference : perf::Metric::Int8Inference;
    }
    // Nobody trains in int8 or int4: an 8-bit (or 4-bit) row of a network class measures
    // 8-bit inference (FP8 where the GPU has it, INT8 otherwise), the seed's chart metric.
    return perf::trainingMetricFor(precision).value_or(perf::Metric::Int8Inference);
}

std::vector<BenchmarkRow> readBenchmarks(std::string_view textIn, const std::string& fileLabel) {
    const csv::Table table = csv::read(textIn, fileLabel);
    const auto col = csv::columnsRequiring(
        table, fileLabel, {"gpu", "num_gpus", "workload", "workload_class", "precision", "throughput"});
    std::vector<InputProblem> problems;
    const auto cell = [&](const csv::Row& r, const char* name) { return csv::cellIn(r, col, name); };
    std::vector<BenchmarkRow> out;
    for (const auto& r : table.rows) {
        if (r.fields.size() != table.header.size()) {
            problems.push_back({{fileLabel, r.line, "", ""}, "has " + std::to_string(r.fields.size()) +
                                                                  " fields; the header has " +
                                                                  std::to_string(table.header.size())});
            continue;
        }
        const auto bad = [&](const char* field, const std::string& why) {
            problems.push_back({{fileLabel, r.line, "", field}, why});
        };
        BenchmarkRow b;
        b.file = fileLabel;
        b.line = r.line;
        b.gpu = cell(r, "gpu");
        if (b.gpu.empty() || text::firstInvalidUtf8(b.gpu)) {
            bad("gpu", "must name a GPU");
        }
        const auto n = text::parseInteger(cell(r, "num_gpus"));
        if (!n || *n < 1 || *n > 1024) {
            bad("num_gpus", "must be a whole number from 1 to 1024, got " + text::quoteForMessage(cell(r, "num_gpus")));
        } else {
            b.numGpus = static_cast<int>(*n);
        }
        b.workload = cell(r, "workload");
        if (b.workload.empty()) {
            bad("workload", "must not be empty");
        }
        b.workloadClass = text::toLower(cell(r, "workload_class"));
        if (!b.networkClass() && !b.isLlm() && !b.isGemm()) {
            bad("workload_class", "must be transformer, cnn, rnn, recsys (training; with -inference, inference), "
                                  "llm-decode, llm-prefill or gemm, got " +
                                      text::quoteForMessage(b.workloadClass));
        }
        if (b.isGemm() && b.numGpus != 1) {
            bad("num_gpus", "a gemm row measures one GPU's matrix multiply: must be 1, got " +
                                text::quoteForMessage(cell(r, "num_gpus")));
        }
        const std::string precision = text::toLower(cell(r, "precision"));
        if (const auto p = perf::parsePrecision(precision == "tf32" ? "fp32" : precision)) {
            b.precision = *p; // TF32 is how Ampere and later run fp32 training
        } else {
            bad("precision", "must be fp32 (or tf32), fp16, bf16, int8, fp8 or int4, got " +
                                 text::quoteForMessage(cell(r, "precision")));
        }
        if (b.isInference() && b.precision == perf::Precision::Fp32) {
            // The seed's charts have 8- and 16-bit inference only.
            bad("precision", "an inference row must be fp16, bf16, int8, fp8 or int4 (no metric is 32-bit "
                             "inference), got " +
                                 text::quoteForMessage(cell(r, "precision")));
        }
        const std::string batch = cell(r, "batch_size"); // errors quote the cell as written
        if (!batch.empty()) {
            const auto v = text::parseNumber(csv::numberCell(table, batch));
            if (!v.value || *v.value < 0) {
                bad("batch_size", "must be empty or a number >= 0, got " + text::quoteForMessage(batch));
            } else if (b.workloadClass == "llm-decode" && *v.value != std::floor(*v.value)) {
                // Token generation's batch is the sequences generated together.
                bad("batch_size", "must be a whole number for llm-decode (the sequences generated together), got " +
                                      text::quoteForMessage(batch));
            } else if (*v.value > 0) {
                b.batchSize = *v.value;
            } else {
                b.zeroBatch = true;
            }
        }
        const auto t = text::parseNumber(csv::numberCell(table, cell(r, "throughput")));
        if (!t.value) {
            bad("throughput", text::describeNumberError(t.error, cell(r, "throughput")));
        } else if (*t.value < 0) {
            bad("throughput", "must be zero (not run) or greater");
        } else {
            b.throughput = *t.value;
        }
        b.source = cell(r, "source");
        out.push_back(std::move(b));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<BenchmarkRow> readBenchmarkFile(const std::string& path) {
    return readBenchmarks(files::readAll(path), path);
}

std::vector<BenchmarkRow> builtinBenchmarks() {
    std::vector<BenchmarkRow> all;
    for (const auto& path : resources::list()) {
        if (text::startsWith(path, "benchmarks/") && files::extension(std::string(path)) == "csv") {
            auto rows = readBenchmarks(*resources::find(path), "resources/" + std::string(path));
            all.insert(all.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
        }
    }
    return all;
}

std::optional<double> llmParamsBillion(std::string_view workload) {
    std::string w = text::toLower(workload);
    std::replace(w.begin(), w.end(), '_', '-'); // "Llama_3_70B_Q4_K_M" is "llama-3-70b-q4-k-m"
    std::replace(w.begin(), w.end(), ' ', '-');
    if (text::startsWith(w, "llama3-8b") || text::startsWith(w, "llama-3-8b")) {
        return perf::kLlama3_8bParamsBillion;
    }
    for (const auto& part : text::split(w, '-')) {
        if (part.size() < 2 || (part.back() != 'b' && part.back() != 'm')) {
            continue;
        }
        // The size is the number the part ends with: "70b", "1.5b", "760m", and run together with
        // the family as in "mistral7b" or "qwen2.5:14b" (not "8x7b": a mixture of experts' total
        // is not what one token reads).
        size_t start = part.size() - 1;
        while (start > 0 && (std::isdigit(static_cast<unsigned char>(part[start - 1])) || part[start - 1] == '.')) {
            --start;
        }
        if (start > 0 && part[start - 1] == 'x') {
            continue;
        }
        if (const auto v = text::parseNumber(part.substr(start, part.size() - 1 - start)).value; v && *v > 0) {
            return part.back() == 'm' ? *v / 1000.0 : *v;
        }
    }
    return std::nullopt;
}

namespace {

// The count a part such as "pp512" gives after its prefix, if the rest is a whole number of
// tokens (at most 10 million, the command line's limit for a context).
std::optional<int> countAfter(std::string_view part, std::string_view prefix) {
    if (!text::startsWith(part, prefix)) {
        return std::nullopt;
    }
    const auto n = text::parseInteger(part.substr(prefix.size()));
    if (!n || *n < 0 || *n > perf::kMaxContextTokens) {
        return std::nullopt;
    }
    return static_cast<int>(*n);
}

} // namespace

LlmTest llmTestIn(std::string_view workload) {
    std::string w = text::toLower(workload);
    for (char& c : w) {
        if (c == '_' || c == ' ' || c == '@' || c == '+' || c == ',') {
            c = '-';
        }
    }
    LlmTest t;
    for (const auto& part : text::split(w, '-')) {
        if (const auto n = countAfter(part, "pp"); n && *n > 0) {
            t.promptTokens = *n;
        } else if (const auto g = countAfter(part, "tg"); g && *g > 0) {
            t.generatedTokens = *g;
        } else if (const auto d = countAfter(part, "depth")) {
            t.depthTokens = *d;
        } else if (const auto d1 = countAfter(part, "d")) {
            t.depthTokens = *d1;
        }
    }
    return t;
}

const calc::ModelShape* modelShapeIn(std::string_view workload) {
    const std::string key = perf::workloadNameKey(workload);
    const calc::ModelShape* found = nullptr;
    size_t foundLength = 0;
    for (const auto& m : calc::modelShapes()) {
        const std::string id = perf::workloadNameKey(m.id);
        if (id.size() > foundLength && key.find(id) != std::string::npos) {
            found = &m;
            foundLength = id.size();
        }
    }
    return found;
}

const calc::ModelShape* mixtureOfExpertsIn(std::string_view workload) {
    const calc::ModelShape* m = modelShapeIn(workload);
    return m != nullptr && m->activeParamsBillion > 0 ? m : nullptr;
}

} // namespace advisor::eval
