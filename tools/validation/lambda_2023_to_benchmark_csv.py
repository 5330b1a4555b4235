#!/usr/bin/env python3
"""Converts Lambda's 2022-2023 PyTorch training tables (lambdal/deeplearning-benchmark,
pytorch/pytorch-train-throughput-<p>.csv and pytorch/pytorch-train-bs-<p>.csv) into the
benchmark CSV format of DESIGN.md, as kept in tests/fixtures/validation/. Usage:

    tools/validation/lambda_2023_to_benchmark_csv.py THROUGHPUT.csv BATCH.csv fp16|fp32 SOURCE > out.csv

Choices (see tests/fixtures/validation/README.md): vendor re-runs (Dell, SMC, 1CC) and the
second Lambda Cloud H100 runs are left out; a GPU missing from the batch table takes the
batch of a card with the same memory (A10 <- RTX 3090, 24 GB; H100 SXM5 <- H100 PCIe, 80 GB);
a GPU count missing from it takes the single-GPU batch times the count (the 2-GPU rows
that are listed all follow that rule); rows with zero throughput (not run) are left out.
"""
import csv
import re
import sys

# Lambda's names (count prefix removed) -> catalog names.
GPUS = {
    "Quadro RTX 8000": "Quadro RTX 8000",
    "LambdaCloud V100 16GB": "V100 SXM2 16GB",  # 300 W in Lambda's table: the SXM2 module
    "RTX 3090": "RTX 3090",
    "LambdaCloud A10": "A10",
    "LambdaCloud A100 40GB PCIe": "A100 40GB PCIe",
    "Lambda Cloud A100 40GB PCIe": "A100 40GB PCIe",
    "A100 80GB PCIe": "A100 80GB PCIe",
    "A100 80GB SXM4": "A100 80GB SXM4",
    "RTX 6000 Ada": "RTX 6000 Ada",
    "Ada A6000": "RTX 6000 Ada",
    "RTX A6000": "RTX A6000",
    "RTX 4090": "RTX 4090",
    "H100 80GB PCIe Gen5": "H100 PCIe",
    "H100 80GB SXM5": "H100 SXM5",
}
BATCH_FROM = {"A10": "RTX 3090", "H100 SXM5": "H100 PCIe"}
CLASSES = {
    "ssd": "cnn", "resnet50": "cnn", "waveglow": "cnn", "bert_base_squad": "transformer",
    "bert_large_squad": "transformer", "transformerxlbase": "transformer", "transformerxllarge": "transformer",
    "gnmt": "rnn", "tacotron2": "rnn", "ncf": "recsys",
}


def gpu_of(name):
    """Catalog name for a Lambda row, or None for rows left out."""
    bare = re.sub(r"^(LambdaCloud )?\d+x ?", lambda m: m.group(1) or "", name).strip()
    return GPUS.get(bare)


def main():
    throughput_path, batch_path, precision, source = sys.argv[1:5]
    batches = {}
    for row in csv.DictReader(open(batch_path, encoding="utf-8")):
        gpu = gpu_of(row["name_gpu"])
        if gpu:
            batches[(gpu, int(float(row["num_gpu"])))] = row

    def batch(gpu, n, workload):
        donor = BATCH_FROM.get(gpu, gpu)
        if (donor, n) in batches:
            return int(float(batches[(donor, n)][workload]))
        return int(float(batches[(donor, 1)][workload])) * n

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["gpu", "num_gpus", "workload", "workload_class", "precision", "batch_size", "throughput", "source"])
    for row in csv.DictReader(open(throughput_path, encoding="utf-8")):
        name = row["name_gpu"]
        if name.startswith("LambdaCloud") and "H100" in name:
            continue  # a second run of cards Lambda also lists under their own name
        gpu = gpu_of(name)
        if gpu is None:
            continue
        n = int(float(row["num_gpu"]))
        for workload in (w for w in row if w in CLASSES):  # the table's column order
            value = float(row[workload])
            if value > 0:
                out.writerow([gpu, n, workload, CLASSES[workload], precision, batch(gpu, n, workload), value, source])


if __name__ == "__main__":
    main()
