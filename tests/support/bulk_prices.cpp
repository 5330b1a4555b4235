#include "support/bulk_prices.h"

namespace advisor::testing {

std::string bulkPriceCsv(int rows) {
    const char* gpus[] = {"RTX 4090", "RTX 3090", "H100 SXM5", "A100 80GB PCIe", "RTX 4070 Ti", "L40S"};
    std::string out = "gpu,condition,amount,currency,observed_date,source,source_url,note\n";
    for (int i = 0; i < rows; ++i) {
        out += gpus[i % 6];
        out += i % 3 == 0 ? ",used," : ",new,";
        out += std::to_string(500 + i % 20000) + "." + std::to_string(i % 100);
        out += ",USD,20" + std::to_string(18 + i % 8) + "-0" + std::to_string(1 + i % 9) + "-1" +
               std::to_string(i % 9);
        out += ",Benchmark shop,https://example.test/item/" + std::to_string(i) + ",row " + std::to_string(i) + "\n";
    }
    return out;
}

} // namespace advisor::testing
