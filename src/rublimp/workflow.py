"""What the Snakefile needs to know about a config: paths, paradigms, models, checks.

Kept in the package (not in rules/common.smk) so it is importable and tested.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .io import InputError

__all__ = ["WorkflowConfig", "ModelSpec"]


@dataclass(frozen=True)
class ModelSpec:
    name: str
    backend: str
    path: str
    demo: bool
    decontaminate: bool
    evaluate: bool
    device: str
    dtype: str
    batch_tokens: int | None  # None: the device's default (rublimp.scoring.hf.default_batch_tokens)
    trust_remote_code: bool
    tier: int = 0  # cascade tier: 0 scores whole pools, >= 1 only the survivors of tier 0 (curation.t_max)
    max_length: int | None = None
    vllm: dict | None = None  # options for the vllm backend (tensor_parallel_size, gpu_memory_utilization, …)

    @property
    def gpus(self) -> int:
        """GPUs a scoring job of this model needs (0 on CPU; the tensor-parallel size for vLLM)."""
        if not self.device.startswith("cuda"):
            return 0
        return int((self.vllm or {}).get("tensor_parallel_size", 1))


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


class WorkflowConfig:
    """A validated config (see config/schema.yaml) seen from the workflow's side."""

    def __init__(self, config: dict[str, Any], *, basedir: str | os.PathLike = ".", check_models: bool = True):
        self.config = config
        self.basedir = Path(basedir)
        self.outdir = str(config.get("outdir", "results")).rstrip("/")
        self.seed = int(config.get("seed", 0))
        self._check_consistency()
        self.paradigms = self._resolve_paradigms()
        self.models = self._resolve_models()
        if check_models:
            self._check_models_loadable()

    # -- paradigms --------------------------------------------------------
    def _resolve_paradigms(self) -> list[str]:
        from .perturb import resolve_paradigms

        names = self.config.get("perturb", {}).get("paradigms", "all")
        return resolve_paradigms(names, config_key="perturb.paradigms")

    def paradigm_source(self, name: str) -> str:
        """Absolute path of the module that defines paradigm ``name`` (an input of its perturb job)."""
        from .paradigms import REGISTRY

        return str(Path(inspect.getsourcefile(REGISTRY[name])).resolve())

    # -- models -----------------------------------------------------------
    def _resolve_models(self) -> list[ModelSpec]:
        scoring = self.config.get("scoring", {})
        out = []
        seen = set()
        for i, m in enumerate(self.config.get("models", [])):
            key = f"models[{i}]"
            name = m["name"]
            if name in seen:
                raise InputError(f"config key {key}.name: model name {name!r} used twice")
            seen.add(name)
            demo = bool(m.get("demo", False))
            path = m.get("path")
            if demo:
                path = f"{self.outdir}/models/{name}"
            elif not path:
                raise InputError(f"config key {key}: model {name!r} needs a `path` (local directory or hub id) or `demo: true`")
            out.append(
                ModelSpec(
                    name=name,
                    backend=m["backend"],
                    path=str(path),
                    demo=demo,
                    decontaminate=bool(m.get("decontaminate", True)),
                    evaluate=bool(m.get("evaluate", True)),
                    device=m.get("device", scoring.get("device", "cpu")),
                    dtype=m.get("dtype", scoring.get("dtype", "float32")),
                    batch_tokens=_opt_int(m.get("batch_tokens", scoring.get("batch_tokens"))),
                    trust_remote_code=bool(m.get("trust_remote_code", False)),
                    tier=int(m.get("tier", 0)),
                    max_length=m.get("max_length"),
                    vllm=dict(m["vllm"]) if m.get("vllm") else None,
                )
            )
        if not any(m.decontaminate for m in out):
            raise InputError("config key models: at least one model must have `decontaminate: true`")
        if not any(m.evaluate for m in out):
            raise InputError("config key models: at least one model must have `evaluate: true`")
        cascaded = [m.name for m in out if m.decontaminate and m.tier >= 1]
        if cascaded and self.t_max is None:
            raise InputError(
                f"config key curation.t_max: models {cascaded} have tier >= 1 (cascade), which needs t_max, "
                "the loosest Min-K% threshold the curation may choose"
            )
        if cascaded and not any(m.decontaminate and m.tier == 0 for m in out):
            raise InputError("config key models: the cascade (tier >= 1) needs at least one tier-0 decontamination model")
        return out

    def _check_models_loadable(self) -> None:
        """Fail at start-up, before any heavy work, for a model that cannot be loaded."""
        from .scoring import check_model_loadable

        for i, m in enumerate(self.models):
            if not m.demo:
                check_model_loadable(
                    m.path, trust_remote_code=m.trust_remote_code, config_key=f"models[{i}] ({m.name!r})"
                )

    def model(self, name: str) -> ModelSpec:
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def model_names(self) -> list[str]:
        return [m.name for m in self.models]

    @property
    def decontamination_models(self) -> list[str]:
        return [m.name for m in self.models if m.decontaminate]

    @property
    def evaluation_models(self) -> list[str]:
        return [m.name for m in self.models if m.evaluate]

    @property
    def demo_models(self) -> list[str]:
        return [m.name for m in self.models if m.demo]

    @property
    def t_max(self) -> float | None:
        return self.config.get("curation", {}).get("t_max")

    @property
    def tier0_models(self) -> list[str]:
        return [m.name for m in self.models if m.decontaminate and m.tier == 0]

    @property
    def cascaded_models(self) -> list[str]:
        """Decontamination models scored only on the tier-0 survivors (the cascade)."""
        return [m.name for m in self.models if m.decontaminate and m.tier >= 1]

    def tier0_scores(self, model: str, paradigm: str) -> dict[str, str]:
        """Tier-0 score files a cascaded model's pool job reads ({} for a tier-0 model)."""
        if model not in self.cascaded_models:
            return {}
        return {m: f"{self.outdir}/scores/{m}/grammatical/{paradigm}.parquet" for m in self.tier0_models}

    def cascade(self, model: str, paradigm: str) -> dict | None:
        tier0 = self.tier0_scores(model, paradigm)
        if not tier0:
            return None
        return {"k": self.config.get("curation", {}).get("k", 30), "t_max": self.t_max, "tier0": tier0}

    def model_inputs(self, name: str) -> list[str]:
        m = self.model(name)
        return [f"{self.outdir}/models/{name}/training.json"] if m.demo else []

    # -- other settings ---------------------------------------------------
    @property
    def n_shards(self) -> int:
        return int(self.config.get("parse", {}).get("shards", 4))

    def _check_consistency(self) -> None:
        ks = self.config.get("scoring", {}).get("ks", [30, 40, 50, 60])
        k = self.config.get("curation", {}).get("k", 30)
        if k not in ks:
            raise InputError(f"config key curation.k: K={k} must be one of scoring.ks {ks}")
        bins = self.config.get("curation", {}).get("length_bins", [6, 10, 15, 20, 30, 51])
        if list(bins) != sorted(set(bins)):
            raise InputError(f"config key curation.length_bins: edges must be strictly increasing, got {bins}")
