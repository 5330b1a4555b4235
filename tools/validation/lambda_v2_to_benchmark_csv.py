#!/usr/bin/env python3
"""Converts Lambda's "v2" PyTorch training tables (lambdal/deeplearning-benchmark,
pytorch/pytorch-train-throughput-v2-<p>.csv: H100 80GB PCIe and SXM5 on Lambda On-Demand
machines in Texas) into the benchmark CSV format of DESIGN.md, as kept in
tests/fixtures/validation/. Usage:

    tools/validation/lambda_v2_to_benchmark_csv.py THROUGHPUT.csv fp16|fp32 SOURCE > out.csv

A row name such as LambdaOD_8x_Texas_4xH100_80GB_SXM5_192-222-52-89_v2 is a run on 4 GPUs
of an 8-GPU machine; without the count prefix (H100_80GB_SXM5) it ran on one GPU. Every run
is kept, repeats included (each machine is its own row). The table has no batch sizes: they
are the per-GPU batches of pytorch/scripts/config_v2/config_pytorch_80GB.sh (both cards have
80 GB; the 2x/4x/8x configs source it and change only NCF's, MaskRCNN's and
TransformerXL's totals, to the per-GPU batch times the count), written as totals.
"""
import csv
import re
import sys

from lambda_2023_to_benchmark_csv import CLASSES  # the same networks' classes (this script's folder)

GPUS = {"PCIe": "H100 PCIe", "SXM5": "H100 SXM5"}
# Per-GPU batch of config_pytorch_80GB.sh (BERT: its third positional argument).
BATCH = {
    "fp16": {"ssd": 448, "resnet50": 1280, "waveglow": 48, "bert_base_squad": 320, "bert_large_squad": 112,
             "gnmt": 1520, "tacotron2": 256, "ncf": 10000000},
    "fp32": {"ssd": 256, "resnet50": 640, "waveglow": 32, "bert_base_squad": 172, "bert_large_squad": 64,
             "gnmt": 1024, "tacotron2": 256, "ncf": 8000000},
}
NAME = re.compile(r"^LambdaOD_\d+x_Texas_(?:(\d+)x)?H100_80GB_(PCIe|SXM5)_[\d-]+_v2$")


def main():
    throughput_path, precision, source = sys.argv[1:4]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["gpu", "num_gpus", "workload", "workload_class", "precision", "batch_size", "throughput", "source"])
    for row in csv.DictReader(open(throughput_path, encoding="utf-8")):
        match = NAME.match(row[""])
        if match is None:
            sys.exit(f"{throughput_path}: row name '{row['']}' is not a LambdaOD H100 run")
        n = int(match.group(1) or 1)
        for workload in (w for w in row if w in CLASSES):  # the table's column order
            value = float(row[workload])
            if value > 0:
                batch = BATCH[precision][workload] * n
                out.writerow([GPUS[match.group(2)], n, workload, CLASSES[workload], precision, batch, value, source])


if __name__ == "__main__":
    main()
