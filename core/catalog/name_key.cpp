#include "catalog/name_key.h"

#include "common/text.h"

#include <algorithm>
#include <array>

namespace advisor {
namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isAlpha(char c) {
    return c >= 'a' && c <= 'z';
}
bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

std::vector<std::string> words(std::string_view name) {
    std::vector<std::string> out;
    std::string cur;
    for (const char raw : name) {
        const char c = (raw >= 'A' && raw <= 'Z') ? static_cast<char>(raw - 'A' + 'a') : raw;
        if (isDigit(c) || isAlpha(c)) {
            cur += c;
        } else if (!cur.empty()) {
            out.push_back(std::move(cur));
            cur.clear();
        }
    }
    if (!cur.empty()) {
        out.push_back(std::move(cur));
    }
    return out;
}

bool isMemorySize(std::string_view w) {
    return w.size() > 2 && w.substr(w.size() - 2) == "gb" && allDigits(w.substr(0, w.size() - 2));
}

bool isForm(std::string_view w) {
    if (w == "pcie" || w == "oam") {
        return true;
    }
    return w.size() <= 4 && w.substr(0, 3) == "sxm" && (w.size() == 3 || isDigit(w[3]));
}

bool isMemoryType(std::string_view w) {
    if (w.substr(0, 3) == "hbm") {
        const auto rest = w.substr(3);
        return rest.empty() || rest == "2" || rest == "2e" || rest == "3" || rest == "3e";
    }
    if (w.substr(0, 4) == "gddr") {
        const auto rest = w.substr(4);
        return rest == "5" || rest == "5x" || rest == "6" || rest == "6x" || rest == "7";
    }
    return false;
}

// "rtx4090" -> rtx 4090; "mi300x" -> mi 300 x; "a100" -> a 100.
void splitAlnumRuns(const std::string& w, std::vector<std::string>& out) {
    std::string cur;
    for (const char c : w) {
        if (!cur.empty() && isDigit(c) != isDigit(cur.back())) {
            out.push_back(std::move(cur));
            cur.clear();
        }
        cur += c;
    }
    if (!cur.empty()) {
        out.push_back(std::move(cur));
    }
}

// "Gen5" in "H100 80GB PCIe Gen5" (Lambda's tables): the host interface's generation is a
// property of the card, not a variant.
bool isPcieGeneration(std::string_view w) {
    return w.size() == 4 && w.substr(0, 3) == "gen" && w[3] >= '3' && w[3] <= '6';
}

// Words a benchmark table puts before the card for where it ran ("LambdaCloud A10",
// "Lambda Cloud A100 40GB PCIe"); no GPU's name contains them.
bool isHostWord(std::string_view w) {
    return w == "lambdacloud" || w == "lambda" || w == "cloud";
}

// Words vendors' tools add to a product name: nvidia-smi's "NVIDIA RTX 4000 Ada Generation" and
// "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", OpenCL's "Intel(R) Arc(TM) A770 Graphics".
// Variants keep their distinguishing word ("Max-Q", "Server").
bool isProductDecoration(std::string_view w) {
    return w == "generation" || w == "graphics" || w == "tm" || w == "r" || w == "edition" || w == "workstation";
}

// GeForce model numbers: 1050 ... 5090 (series 1-5, tier x50-x90); Quadro/pro numbers such as
// 4000, 6000 or 8000 end in 00 and are not matched.
bool isGeForceModelNumber(std::string_view t) {
    return t.size() == 4 && allDigits(t) && t[0] >= '1' && t[0] <= '5' && t[2] >= '5' && t[3] == '0';
}

// Shops and benchmark tables shorten "Super" to a trailing S ("RTX 4080S", "4070 Ti S"). Only
// after a GeForce number: in "L40S" and "V100S" the S is the model's own.
void expandSuperShorthand(std::vector<std::string>& model) {
    if (std::none_of(model.begin(), model.end(), [](const std::string& t) { return isGeForceModelNumber(t); })) {
        return;
    }
    std::replace(model.begin(), model.end(), std::string("s"), std::string("super"));
}

} // namespace

bool isOptionalBrandWord(std::string_view w) {
    static constexpr std::array<std::string_view, 9> kBrands = {
        "nvidia", "geforce", "tesla", "quadro", "amd", "radeon", "instinct", "intel", "arc"};
    return std::find(kBrands.begin(), kBrands.end(), w) != kBrands.end();
}

NameKey parseNameKey(std::string_view name) {
    std::vector<std::string> ws = words(name);
    // "80 GB" written apart is the same as "80GB".
    std::vector<std::string> merged;
    for (size_t i = 0; i < ws.size(); ++i) {
        if (allDigits(ws[i]) && i + 1 < ws.size() && ws[i + 1] == "gb") {
            merged.push_back(ws[i] + "gb");
            ++i;
        } else if (ws[i] == "gen" && i + 1 < ws.size() && allDigits(ws[i + 1])) {
            merged.push_back(ws[i] + ws[i + 1]); // "PCIe Gen 5" is "PCIe Gen5"
            ++i;
        } else {
            merged.push_back(ws[i]);
        }
    }
    NameKey key;
    for (const auto& w : merged) {
        if (isOptionalBrandWord(w) || isPcieGeneration(w) || isHostWord(w) || isProductDecoration(w)) {
            continue;
        }
        if (isMemorySize(w)) {
            key.memoryGb = static_cast<int>(*text::parseInteger(w.substr(0, w.size() - 2)));
        } else if (isForm(w)) {
            key.form = w;
        } else if (isMemoryType(w)) {
            key.memoryType = w;
        } else if (w == "nvlink") {
            key.nvlink = true;
        } else {
            splitAlnumRuns(w, key.model);
        }
    }
    expandSuperShorthand(key.model);
    std::sort(key.model.begin(), key.model.end());
    return key;
}

bool isBareGeForceNumber(const NameKey& key) {
    const auto number =
        std::find_if(key.model.begin(), key.model.end(), [](const std::string& t) { return isGeForceModelNumber(t); });
    if (number == key.model.end()) {
        return false;
    }
    return std::all_of(key.model.begin(), key.model.end(),
                       [&](const std::string& t) { return &t == &*number || t == "ti" || t == "super" || t == "d"; });
}

} // namespace advisor
