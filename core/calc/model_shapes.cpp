#include "calc/model_shapes.h"

#include "calc/model_query.h"
#include "common/embedded_resources.h"
#include "common/json_fields.h"
#include "common/text.h"
#include "perf/llm_inference.h"
#include "perf/workload.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace advisor::calc {
namespace {

constexpr const char* kPath = "presets/model_shapes.json";

} // namespace

std::vector<ModelShape> parseModelShapes(const std::string& text, const std::string& fileLabel) {
    const auto doc = nlohmann::json::parse(text);
    std::vector<ModelShape> out;
    const auto& list = doc.at("models");
    for (size_t i = 0; i < list.size(); ++i) {
        const JsonFields f(list[i], {fileLabel, 0, "model " + std::to_string(i + 1), ""});
        ModelShape m;
        m.id = f.requireString("id");
        m.label = f.requireString("label");
        m.paramsBillion = f.requirePositive("params_billion");
        if (f.find("active_params_billion") != nullptr) {
            m.activeParamsBillion = f.requirePositive("active_params_billion");
            if (m.activeParamsBillion > m.paramsBillion) {
                f.fail("active_params_billion", "exceeds params_billion (the parameters held)");
            }
        }
        if (f.find("experts") != nullptr || f.find("experts_per_token") != nullptr) {
            // Only a mixture of experts routes; both counts, as its model card gives them.
            if (m.activeParamsBillion == 0) {
                f.fail(f.find("experts") != nullptr ? "experts" : "experts_per_token",
                       "only a mixture of experts (active_params_billion) routes tokens to experts");
            }
            m.experts = f.requireInt("experts", 2, 100000);
            m.expertsPerToken = f.requireInt("experts_per_token", 1, m.experts - 1);
            // The active parameters hold k of the E experts' share of the rest (and attention).
            if (m.activeParamsBillion * m.experts < m.expertsPerToken * m.paramsBillion) {
                f.fail("experts_per_token", "more than the active parameters hold: active_params_billion is less than "
                                            "experts_per_token / experts of params_billion");
            }
        }
        m.layers = f.requireInt("layers", 1, 1000);
        if (f.find("moe_layer_step") != nullptr) {
            if (m.experts == 0) {
                f.fail("moe_layer_step", "only a mixture of experts (experts) has layers with experts");
            }
            m.moeLayerStep = f.requireInt("moe_layer_step", 1, m.layers);
        }
        m.hidden = f.requireInt("hidden", 128, 1000000);
        m.vocab = f.optionalInt("vocab", 256, 10000000).value_or(0);
        m.kvHeads = f.requireInt("kv_heads", 1, 1024);
        m.headDim = f.optionalInt("head_dim", 8, 1024).value_or(128);
        m.heads = f.optionalInt("heads", 1, 1024).value_or(std::max(1, m.hidden / m.headDim));
        if (m.heads % m.kvHeads != 0) {
            f.fail("kv_heads", "must divide the query heads (" + std::to_string(m.heads) + ")");
        }
        m.slidingWindow = f.optionalInt("sliding_window", 1, perf::kMaxContextTokens).value_or(0);
        m.slidingLayers = f.optionalInt("sliding_window_layers", 1, m.layers).value_or(0);
        if ((m.slidingWindow > 0) != (m.slidingLayers > 0)) {
            f.fail(m.slidingWindow > 0 ? "sliding_window_layers" : "sliding_window",
                   "give sliding_window and sliding_window_layers together");
        }
        if (f.find("attention_chunk") != nullptr || f.find("attention_chunk_layers") != nullptr) {
            // Llama 4: 3 of every 4 layers attend within fixed chunks, the 4th to the whole context.
            if (m.slidingWindow > 0) {
                f.fail("attention_chunk", "a model's windowed layers slide (sliding_window) or attend within chunks, "
                                          "not both");
            }
            m.slidingWindow = f.requireInt("attention_chunk", 1, perf::kMaxContextTokens);
            m.slidingLayers = f.requireInt("attention_chunk_layers", 1, m.layers);
            m.chunkedAttention = true;
        }
        m.kvLatentDim = f.optionalInt("kv_latent_dim", 1, 100000).value_or(0);
        if (f.find("linear_attention_layers") != nullptr) {
            // Gated DeltaNet as config.json gives it: each layer's state is value heads x key
            // width x value width, and its convolution keeps the last kernel - 1 inputs of q, k, v.
            m.linearLayers = f.requireInt("linear_attention_layers", 1, m.layers - m.slidingLayers);
            const int keyHeads = f.requireInt("linear_key_heads", 1, 1024);
            const int valueHeads = f.requireInt("linear_value_heads", 1, 1024);
            const int keyDim = f.requireInt("linear_key_head_dim", 1, 1024);
            const int valueDim = f.requireInt("linear_value_head_dim", 1, 1024);
            const int kernel = f.requireInt("linear_conv_kernel", 1, 64);
            m.linearStateValues = double(valueHeads) * keyDim * valueDim +
                                  double(kernel - 1) * (2.0 * keyHeads * keyDim + double(valueHeads) * valueDim);
        }
        m.contextTokens = f.requireInt("context_tokens", 1, perf::kMaxContextTokens);
        if (f.find("int4_bits_per_weight") != nullptr) {
            m.int4BitsPerWeight = f.requirePositive("int4_bits_per_weight");
            if (m.int4BitsPerWeight < 3 || m.int4BitsPerWeight > 8) {
                f.fail("int4_bits_per_weight", "a 4-bit release takes 3 to 8 bits per parameter with its scales");
            }
            m.int4Format = f.requireString("int4_format");
        }
        if (f.find("int4_shared_bits_per_weight") != nullptr) {
            m.int4SharedBitsPerWeight = f.requirePositive("int4_shared_bits_per_weight");
            if (m.int4BitsPerWeight == 0 || m.experts == 0) {
                f.fail("int4_shared_bits_per_weight",
                       "only a mixture of experts with its own 4-bit file (experts, int4_bits_per_weight) keeps its "
                       "shared weights apart");
            }
            if (m.int4SharedBitsPerWeight < m.int4BitsPerWeight || m.int4SharedBitsPerWeight > 16.5) {
                f.fail("int4_shared_bits_per_weight", "must be from int4_bits_per_weight to 16.5 bits per weight");
            }
            perf::PerfQuery q;
            applyModelShape(q, m);
            if (perf::weightParts(q).routedBits < 2.0) {
                f.fail("int4_shared_bits_per_weight", "leaves the routed experts less than 2 bits per weight of the "
                                                      "file's int4_bits_per_weight");
            }
        }
        m.note = f.optionalString("note").value_or("");
        m.source = f.requireString("source");
        out.push_back(std::move(m));
    }
    return out;
}

namespace {

std::vector<ModelShape> load() {
    return parseModelShapes(std::string(resources::require(kPath)), std::string("resources/") + kPath);
}

} // namespace

AttentionShape attentionShapeOf(const ModelShape& m) {
    return {m.layers,        m.heads,       m.kvHeads,      m.headDim,           m.slidingWindow,
            m.slidingLayers, m.kvLatentDim, m.linearLayers, m.linearStateValues, m.chunkedAttention};
}

const std::vector<ModelShape>& modelShapes() {
    static const std::vector<ModelShape> shapes = load();
    return shapes;
}

const ModelShape* findModelShape(std::string_view name) {
    const std::string wanted = text::toLower(text::trim(name));
    for (const auto& m : modelShapes()) {
        if (text::toLower(m.id) == wanted || text::toLower(m.label) == wanted) {
            return &m;
        }
    }
    return nullptr;
}

std::string modelShapeIds() {
    std::vector<std::string> ids;
    for (const auto& m : modelShapes()) {
        ids.push_back(m.id);
    }
    return text::join(ids, ", ");
}

} // namespace advisor::calc
