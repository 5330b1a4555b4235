#!/usr/bin/env python3
"""One-off generator: turns the sourced spec table (gpu_specs.csv + its notes) into
resources/catalog/gpus.json. Kept for provenance; the JSON is the source of truth
afterwards and is edited by hand (entries added by hand since, each with its sources in the
JSON: V100 SXM2 16GB, RTX 5000 Ada, A10G, B300, Tesla P100 PCIe 16GB, Titan V, A30,
RTX 4070 Super, GH200, Tesla P40, V100S PCIe 32GB, A800 80GB SXM4/PCIe, H800 SXM5/PCIe,
GTX 1070, GTX 1070 Ti, GTX 1080; on 2026-11-25 RTX 2080/2070/2060 Super, Titan Xp, RTX A4500,
RTX A5500, RTX A2000 12GB, RTX 2000 Ada, RTX 4500 Ada, GTX 1060 6GB, GTX 1660 Ti; on 2026-11-26
RTX PRO 6000 Blackwell Max-Q, RTX PRO 5000 Blackwell 48GB and 72GB, RX 9070 XT, Radeon AI PRO R9700,
DGX Spark, MI100, MI210, MI250; on 2026-11-27 RTX 3080 12GB, RTX 4060 Ti 8GB, RTX 5060 Ti 8GB,
RTX 5060, RTX 4000 SFF Ada, Quadro RTX 4000, MI355X, MI350X, RTX PRO 4000 and 4500 Blackwell, RTX PRO 6000
Blackwell Server Edition, RTX 3070 Ti, RTX 4090 D, RX 7900 XT, and the aliases 'RTX 3080', 'RTX 4060 Ti' and 'RTX 5060 Ti' on the cards those
names meant before).
Usage:

    tools/catalog/build_catalog.py ../shared/data/gpu_specs.csv ../shared/data/gpu_specs_notes.md \
        > resources/catalog/gpus.json
"""
import csv
import json
import re
import sys

# Rows the reference table lacks but the calibration benchmarks name. Every number
# below comes from the sources listed in the row.
EXTRA_ROWS = [
    {
        "name": "Quadro RTX 5000", "vendor": "NVIDIA", "architecture": "Turing (TU104)",
        "launch_year": "2018", "form": "PCIe", "memory_gb": "16", "memory_type": "GDDR6",
        "memory_bus_bits": "256", "memory_bandwidth_gbs": "448", "sm_count": "48", "sm_unit": "SM",
        "tensor_core_generation": "2nd gen (Turing)", "fp32_tflops": "11.2",
        "fp16_tensor_tflops_dense_fp32acc": "89.2", "fp16_tensor_tflops_dense_fp16acc": "89.2",
        "bf16_tensor_tflops_dense": "", "tf32_tensor_tflops_dense": "", "fp8_tensor_tflops_dense": "",
        "int8_tensor_tops_dense": "178.4", "fp4_tensor_tflops_dense": "", "l2_cache_mb": "4",
        "shared_mem_per_sm_kb": "64", "tdp_w": "265", "slot_width": "2", "power_connector": "1x 8-pin",
        "nvlink": "yes, 2-way, 50 GB/s bidirectional", "launch_msrp_usd": "", "confidence": "medium",
        "derived_fields": "fp16_fp32acc(=fp16acc, Quadro full rate as Quadro RTX 6000); int8(2x fp16, Turing rule)",
        "source_urls": "https://cvw.cac.cornell.edu/gpu-architecture/gpus-frontera-rtx-5000/rtx_5000 ; "
                       "https://networking-equipments.sell.everychina.com/p-117599392-nvidia-quadro-rtx-5000-16g-video-card-the-ultimate-graphics-upgrade-for-professionals.html ; "
                       "https://developer.nvidia.com/blog/nvidia-turing-architecture-in-depth/",
        "_notes": "NVIDIA datasheet values as reproduced by a reseller page: 3,072 CUDA cores, 384 tensor cores, "
                  "16 GB GDDR6 256-bit up to 448 GB/s, 11.2 TFLOPS FP32, 89.2 TFLOPS tensor, NVLink 2-way 50 GB/s, "
                  "PCIe 3.0 x16, total board power 265 W (230 W graphics), dual slot. 48 SMs from Cornell's "
                  "Virtual Workshop (TACC Frontera). Quadro tensor cores run FP32 accumulate at full rate "
                  "(Turing whitepaper, Quadro RTX 6000), so the FP32-accumulate rate equals the FP16 rate. "
                  "INT8 = 2x FP16 (Turing rule). L2 4 MB (TU104, as RTX 2080). Added because Lambda's "
                  "2020-2021 benchmarks include it.",
    },
]

ALIASES = {
    "Titan RTX": ["RTX Titan", "TITAN RTX"],
    # Lambda's benchmark label; its 8-GPU V100 32GB servers are SXM2 (NVLink) machines.
    "V100 SXM2 32GB": ["Tesla V100 32GB", "V100 32GB"],
    # Lambda's cloud V100 ("LambdaCloud V100 16GB", 300 W) is the SXM2 module; the "V100 SXM2 16GB"
    # entry was added to gpus.json by hand (same module as the 32 GB, per the Ampere blog's V100 column).
    "V100 SXM2 16GB": ["Tesla V100 16GB", "V100 16GB"],
    "RTX 6000 Ada": ["A6000 Ada", "RTX A6000 Ada", "RTX 6000 Ada Generation"],
    "RTX A6000": ["A6000"],
    "RTX A5000": ["A5000"],
    "RTX A4000": ["A4000"],
    "H100 SXM5": ["H100 SXM", "H100 SMX"],
    "Radeon PRO W7900": ["W7900"],
    "RTX PRO 6000 Blackwell": ["RTX PRO 6000"],
    "GB200 (per B200 GPU)": ["GB200"],
}

PCIE = {  # generation and lanes of the host interface (TechPowerUp entries cited per row)
    "Pascal": (3, 16), "Volta": (3, 16), "Turing": (3, 16), "Ampere": (4, 16), "Ada": (4, 16),
    "Hopper": (5, 16), "Blackwell": (5, 16), "RDNA 3": (4, 16), "CDNA 2": (4, 16), "CDNA 3": (5, 16),
    "Xe-HPG": (4, 16), "Xe2-HPG": (4, 8),
}
X8_CARDS = {"RTX 4060", "RTX 4060 Ti 16GB", "RTX 5060 Ti 16GB", "Arc B580"}


def num(s):
    s = (s or "").strip()
    if not s:
        return None
    v = float(s)
    return int(v) if v.is_integer() else v


def slug(name):
    name = name.replace("(per B200 GPU)", "")
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def brand_and_segment(name, vendor):
    if vendor == "AMD":
        if name.startswith("MI"):
            return "Instinct", "datacenter"
        if "PRO" in name:
            return "Radeon PRO", "workstation"
        return "Radeon", "consumer"
    if vendor == "Intel":
        return "Arc", "consumer"
    if name.startswith(("GTX", "RTX 2", "RTX 3", "RTX 4", "RTX 5")) and "Ada" not in name:
        return "GeForce", "consumer"
    if name.startswith("Titan"):
        return "TITAN", "consumer"
    if name.startswith("Quadro"):
        return "Quadro", "workstation"
    if name.startswith(("RTX A", "RTX PRO")) or name.endswith("Ada"):
        return "NVIDIA RTX", "workstation"
    return "Data Center", "datacenter"


def parse_arch(s):
    m = re.match(r"^([^()]+?)\s*\((.*)\)$", s)
    if not m:
        return s.strip(), ""
    return m.group(1).strip(), m.group(2).strip()


def parse_form(s):
    low = s.lower()
    if low.startswith("pcie"):
        return "pcie"
    if low.startswith("sxm"):
        m = re.match(r"sxm(\d?)", low)
        return "sxm" + m.group(1)
    if low.startswith("oam"):
        return "oam"
    if "superchip" in low:
        return "superchip"
    raise ValueError(s)


def parse_connectors(s):
    c = {"pcie_6pin": 0, "pcie_8pin": 0, "nv_12pin": 0, "12vhpwr": 0, "eps_8pin": 0}
    low = (s or "").lower()
    if not low or low.startswith("n/a") or low.startswith("none"):
        return c, (s or "").strip() or None
    if "eps" in low or "cpu" in low:
        c["eps_8pin"] = 1
        return c, s
    if "16-pin" in low:
        c["12vhpwr"] = 1
        return c, s
    if "12-pin" in low:
        c["nv_12pin"] = 1
        return c, s
    for count, kind in re.findall(r"(?:(\d)x\s*)?(6|8)-pin", low):
        c["pcie_%spin" % kind] += int(count or 1)
    return c, s


def parse_interconnect(s):
    low = (s or "").lower()
    if low.startswith("infinity fabric"):
        return {"type": "infinity-fabric", "bandwidth_gbs": None, "label": s}
    if not low or low.startswith("no"):
        return {"type": "none", "bandwidth_gbs": None, "label": s or "none"}
    bw = None
    m = re.search(r"([\d.]+)\s*(tb|gb)/s", low)
    if m and "not verified" not in low.split(m.group(0))[0]:
        bw = float(m.group(1)) * (1000 if m.group(2) == "tb" else 1)
        bw = int(bw) if bw.is_integer() else bw
    return {"type": "nvlink", "bandwidth_gbs": bw, "label": s}


def read_notes(path):
    notes = {}
    current = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("### "):
            current = line[4:].strip()
        elif current and line.startswith("* Notes: "):
            notes[current] = line[len("* Notes: "):].strip()
    return notes


def entry(row, notes):
    name = row["name"]
    vendor = row["vendor"]
    arch, chip = parse_arch(row["architecture"])
    brand, segment = brand_and_segment(name, vendor)
    form = parse_form(row["form"])
    gen, lanes = PCIE[arch]
    if name in X8_CARDS:
        lanes = 8
    conns, conn_label = parse_connectors(row["power_connector"])
    slot = row["slot_width"].strip()
    tensor = {
        "fp16_fp32acc": num(row["fp16_tensor_tflops_dense_fp32acc"]),
        "fp16_fp16acc": num(row["fp16_tensor_tflops_dense_fp16acc"]),
        "bf16": num(row["bf16_tensor_tflops_dense"]),
        "tf32": num(row["tf32_tensor_tflops_dense"]),
        "fp8": num(row["fp8_tensor_tflops_dense"]),
        "int8": num(row["int8_tensor_tops_dense"]),
        "fp4": num(row["fp4_tensor_tflops_dense"]),
    }
    nvidia_cc8 = vendor == "NVIDIA" and arch in ("Ampere", "Ada", "Hopper", "Blackwell")
    display = "GB200" if name.startswith("GB200") else name
    return {
        "id": slug(name),
        "name": display,
        "vendor": vendor,
        "brand": brand,
        "segment": segment,
        "architecture": arch,
        "chip": chip,
        "launch_year": int(row["launch_year"]),
        "launch_msrp_usd": num(row["launch_msrp_usd"]),
        "memory": {
            "size_gb": num(row["memory_gb"]),
            "type": row["memory_type"],
            "bus_bits": num(row["memory_bus_bits"]),
            "bandwidth_gbs": num(row["memory_bandwidth_gbs"]),
        },
        "compute": {
            "units": num(row["sm_count"]),
            "unit_name": row["sm_unit"] or None,
            "tensor_cores": row["tensor_core_generation"],
            "fp32_tflops": num(row["fp32_tflops"]),
        },
        "tensor_tflops_dense": tensor,
        "cache": {"l2_mb": num(row["l2_cache_mb"]), "shared_mem_per_sm_kb": num(row["shared_mem_per_sm_kb"])},
        "power": {"tdp_w": num(row["tdp_w"]), "connectors": conns, "connector_label": conn_label},
        "board": {
            "form": form,
            "form_label": row["form"],
            "slot_width": int(slot) if slot.isdigit() else None,
            "pcie_gen": gen,
            "pcie_lanes": lanes,
        },
        "interconnect": parse_interconnect(row["nvlink"]),
        "features": {
            "async_copy": nvidia_cc8,
            "tma": vendor == "NVIDIA" and arch in ("Hopper", "Blackwell"),
            "sparsity_2_4": nvidia_cc8 or arch == "CDNA 3",
        },
        "aliases": ALIASES.get(name, []),
        "confidence": row["confidence"],
        "derived_fields": row["derived_fields"] or None,
        "sources": [u.strip() for u in row["source_urls"].split(" ; ") if u.strip()],
        "notes": row.get("_notes") or notes.get(name),
    }


def main():
    rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
    notes = read_notes(sys.argv[2])
    rows += EXTRA_ROWS
    gpus = [entry(r, notes) for r in rows]
    doc = {
        "format": "gpu-advisor-catalog",
        "version": 1,
        "about": "GPU specifications for GPU Advisor. Dense tensor throughput (no 2:4 sparsity). "
                 "Seeded from a sourced reference table; every entry lists its sources and derived fields.",
        "gpus": gpus,
    }
    json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
