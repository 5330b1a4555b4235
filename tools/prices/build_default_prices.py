#!/usr/bin/env python3
"""One-off generator: turns the sourced street-price table into the app's price file
format (resources/prices/default_prices.csv). Each row keeps its date, source, URL and
note. Rows whose GPU cannot be identified unambiguously are left out (not guessed) and
listed on stderr for resources/prices/README.md.

    tools/prices/build_default_prices.py ../shared/data/prices/gpu_street_prices.csv \
        > resources/prices/default_prices.csv
"""
import csv
import sys

# Source names -> catalog names where the source spells them differently.
RENAME = {
    "AMD RX 7900 XTX": "RX 7900 XTX",
    "AMD MI300X": "MI300X",
    "H100 PCIe 80GB": "H100 PCIe",
    "RTX 3080": "RTX 3080 10GB",
}
# Rows that name no single catalog GPU.
EXCLUDE = {
    "A100 (unspecified)": "which A100 (40/80 GB, PCIe/SXM) is not stated",
    "RTX 4060 Ti (memory variant not stated)": "8 GB or 16 GB not stated; only the 16 GB card is in the catalog",
    "H100 PCIe 96GB (as named by tracker)": "no H100 PCIe with 96 GB exists in the catalog (H100 NVL has 94 GB)",
}


def main():
    rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["gpu", "condition", "amount", "currency", "observed_date", "source", "source_url", "note"])
    for r in rows:
        name = r["gpu"]
        if name in EXCLUDE:
            print("excluded: %s %s %s (%s): %s" % (name, r["price_usd"], r["observed_date"], r["source"], EXCLUDE[name]),
                  file=sys.stderr)
            continue
        out.writerow([RENAME.get(name, name), r["condition"], r["price_usd"], "USD", r["observed_date"],
                      r["source"], r["source_url"], r["note"]])


if __name__ == "__main__":
    main()
