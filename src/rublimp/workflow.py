"""What the Snakefile needs to know about a config: paths, paradigms, models, checks.

Kept in the package (not in rules/common.smk) so it is importable and tested.
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from .io import InputError

__all__ = ["WorkflowConfig", "ModelSpec", "module_closure", "STAGE_CODE", "SCORING_BACKEND_MODULES"]

PACKAGE = "rublimp"
PACKAGE_DIR = Path(__file__).resolve().parent

#: The package code each rule runs: ``module:function`` entry points (the stage function in
#: rublimp.stages and, through it, every package module it imports).
STAGE_CODE: dict[str, tuple[str, ...]] = {
    "corpus": ("rublimp.stages:corpus_stage",),
    "parse": ("rublimp.stages:parse_stage",),
    "shard_plan": ("rublimp.stages:shard_plan_stage",),
    "validate_agreement": ("rublimp.stages:agreement_stage",),
    # a paradigm's pool: the shard pass and the per-paradigm merge (rublimp.pools)
    "perturb": ("rublimp.stages:perturb_shard_stage", "rublimp.stages:pool_stage"),
    # the rule `perturb` merges with rublimp.pool_merge (bounded memory), kept out of "perturb"
    # so that it is not part of the partial pools' cache keys (rublimp.pools.partial_key)
    "perturb_merge": ("rublimp.pool_merge:pool_stage",),
    "train_demo_lm": ("rublimp.stages:train_demo_lm_stage",),
    "demo_lm_check": ("rublimp.stages:demo_lm_check_stage",),
    "score": ("rublimp.stages:score_stage",),
    "context_check": ("rublimp.scoring.context:context_stage",),
    "curate": ("rublimp.stages:curate_stage",),
    "evaluate": ("rublimp.stages:evaluate_stage",),
    "report": ("rublimp.stages:report_stage",),
    "export": ("rublimp.stages:export_stage",),
    # stages whose logic lives in its own module: the whole module (its functions call each other,
    # so every import in it counts); the markdown sections only run their section_stage
    "validation": ("rublimp.validation",),
    "validation_report": ("rublimp.validation:section_stage",),
    "metalinguistic": ("rublimp.metaling",),
    "metalinguistic_summary": ("rublimp.metaling:summary_stage",),
    "metalinguistic_section": ("rublimp.metaling:section_stage",),
    "acceptability": ("rublimp.acceptability",),
    "acceptability_section": ("rublimp.acceptability:section_stage",),
}

#: The module of each scoring backend: a model's scoring jobs depend on its backend's module
#: and not on the other backends' (rublimp.scoring imports each lazily, only when asked for it).
SCORING_BACKEND_MODULES: dict[str, str] = {
    "hf": "rublimp.scoring.hf",
    "hf-mlm": "rublimp.scoring.mlm",
    "vllm": "rublimp.scoring.vllm",
}
#: Parser backends, likewise (rublimp.parse imports stanza only for the stanza backend).
PARSE_BACKEND_MODULES: dict[str, str] = {
    "slovnet": "rublimp.parse.slovnet_backend",
    "stanza": "rublimp.parse.stanza_backend",
}


def _module_file(module: str, root: Path) -> Path | None:
    """The source file of package module ``module`` (``rublimp.x.y``) under ``root``, or None."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every statement nested in it (imports are statements: expressions, where most
    of a module's nodes are, need no visit)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(n, field, None)
            if isinstance(children, list):
                todo.extend(children)


def _import_targets(node: ast.AST, module: str, is_package: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every import inside ``node`` (module level and inside functions) as ``(module, names)``:
    ``import a.b`` gives ``("a.b", ())``, ``from a import b, c`` gives ``("a", ("b", "c"))``
    (relative imports resolved against ``module``)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    pkg = module if is_package else module.rpartition(".")[0]
    for n in _statements(node):
        if isinstance(n, ast.Import):
            out.extend((a.name, ()) for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                anchor = pkg.split(".")
                anchor = anchor[: len(anchor) - (n.level - 1)]
                target = ".".join(anchor + ([n.module] if n.module else []))
            else:
                target = n.module or ""
            out.append((target, tuple(a.name for a in n.names)))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _file_import_targets(path: Path, mtime_ns: int, size: int, module: str,
                         is_package: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """:func:`_import_targets` of a whole source file, read once per file version (mtime and size)
    in a process: a Snakemake run asks for the closures of every paradigm and stage, which share
    most files."""
    return _import_targets(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), module, is_package)


def _imported_modules(node: ast.AST | Path, module: str, is_package: bool, root: Path) -> set[str]:
    """Package modules imported anywhere inside ``node`` (a parsed node, or a source file as a whole)."""
    if isinstance(node, Path):
        st = node.stat()
        targets = _file_import_targets(node, st.st_mtime_ns, st.st_size, module, is_package)
    else:
        targets = _import_targets(node, module, is_package)
    out: set[str] = set()
    for target, names in targets:
        out.add(target)
        # `from pkg import submodule` imports the submodule too
        for name in names:
            if _module_file(f"{target}.{name}", root) is not None:
                out.add(f"{target}.{name}")
    return {m for m in out if m.split(".")[0] == PACKAGE}


def _parsed(path: Path) -> ast.Module:
    return _parse_cached(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _parse_cached(path: Path, mtime_ns: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def module_closure(
    entries: Iterable[str], *, exclude: Iterable[str] = (), root: str | os.PathLike | None = None
) -> list[str]:
    """Every package source file the code reachable from ``entries`` may execute, sorted.

    ``entries`` are module names (``rublimp.paradigms.tense``) or ``module:function``
    (only that function's imports, plus the module's top-level ones, are followed). From
    there the import graph of the package is followed through every ``import`` statement,
    at module level or inside functions, found with :mod:`ast`, together with the
    ``__init__.py`` of every enclosing package (it runs on import). Imports outside the
    package are not followed (installed software is the environment's business).
    Modules in ``exclude`` (and whatever only they import) are left out: a scoring job of an
    ``hf`` model never runs the other backends' modules that rublimp.scoring imports lazily.
    """
    root = Path(root) if root is not None else PACKAGE_DIR
    excluded = set(exclude)
    seen: set[str] = set()
    todo: list[str] = []

    def add(module: str) -> None:
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            m = ".".join(parts[:i])
            if m not in seen and m not in excluded and _module_file(m, root) is not None:
                seen.add(m)
                todo.append(m)

    for entry in entries:
        module, _, func = entry.partition(":")
        path = _module_file(module, root)
        if path is None:
            raise ValueError(f"module_closure: {module!r} is not a module of the {PACKAGE} package under {root}")
        if not func:
            add(module)
            continue
        # the entry module itself (its file), its top-level imports and the function's imports
        if "." in module:
            add(module.rpartition(".")[0])
        seen.add(module)
        tree = _parsed(path)
        is_pkg = path.name == "__init__.py"
        fn = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func]
        if not fn:
            raise ValueError(f"module_closure: {module} has no function {func!r}")
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom, ast.If, ast.Try))]
        for m in _imported_modules(ast.Module(body=top, type_ignores=[]), module, is_pkg, root):
            add(m)
        for m in _imported_modules(fn[0], module, is_pkg, root):
            add(m)
    while todo:
        module = todo.pop()
        path = _module_file(module, root)
        for m in _imported_modules(path, module, path.name == "__init__.py", root):
            add(m)
    return sorted(str(_module_file(m, root)) for m in seen)


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


def load_schema(path: str | os.PathLike) -> dict:
    import yaml

    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def validate_config(config: dict[str, Any], schema: dict) -> dict[str, Any]:
    """Validate ``config`` against ``schema`` and fill in the schema's defaults (in place).

    The same as ``snakemake.utils.validate`` (which the Snakefile calls): the defaults are
    defined once, in config/schema.yaml, and nowhere else. Errors name the config key.
    """
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if "default" in sub:
                    instance.setdefault(prop, copy.deepcopy(sub["default"]))
        yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)

    filling = validators.extend(Draft202012Validator, {"properties": set_defaults})
    errors = sorted(filling(schema).iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise InputError(config_error_message(errors[0]))
    return config


def _key_path(parts: Iterable[Any]) -> str:
    """``["models", 0, "name"]`` -> ``models[0].name``."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def config_error_message(error: Any) -> str:
    """One line naming the config key of a ``jsonschema`` validation error, without the schema.

    An unknown key is named by its full path with the keys allowed there (``config key
    scoring.thread: unknown key; known keys here: batch_tokens, device, ...``); other errors
    name the key whose value is wrong and say why (jsonschema's message, cut to one line).
    """
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set((error.schema or {}).get("properties", {}))
        unknown = sorted(str(k) for k in error.instance if k not in allowed)
        if unknown:
            keys = ", ".join(_key_path([*path, k]) for k in unknown)
            known = ", ".join(sorted(allowed)) or "none"
            return f"config key {keys}: unknown key{'s' if len(unknown) > 1 else ''}; known keys here: {known}"
    message = " ".join(str(error.message).split())
    if len(message) > 300:
        message = message[:297] + "..."
    return f"config key {_key_path(path) or '(top level)'}: {message}"


class WorkflowConfig:
    """A validated config (see config/schema.yaml) seen from the workflow's side."""

    def __init__(self, config: dict[str, Any], *, basedir: str | os.PathLike = ".", check_models: bool = True):
        self.basedir = Path(basedir)
        self.schema = load_schema(self.basedir / "config" / "schema.yaml")
        # validated here too (the Snakefile validates first): every default comes from the schema
        self.config = validate_config(config, self.schema)
        config = self.config
        self.outdir = str(config["outdir"]).rstrip("/")
        self.seed = int(config["seed"])
        self._check_consistency()
        self.paradigms = self._resolve_paradigms()
        self.models = self._resolve_models()
        if check_models:
            self._check_models_loadable()

    # -- paradigms --------------------------------------------------------
    def _resolve_paradigms(self) -> list[str]:
        from .perturb import resolve_paradigms

        names = self.config["perturb"]["paradigms"]
        seen: dict[str, int] = {}
        for i, n in enumerate([] if isinstance(names, str) else names):
            if n in seen:
                raise InputError(f"config key perturb.paradigms[{i}]: paradigm {n!r} is listed twice "
                                 f"(also perturb.paradigms[{seen[n]}])")
            seen[n] = i
        return resolve_paradigms(names, config_key="perturb.paradigms")

    def paradigm_source(self, name: str) -> str:
        """Absolute path of the module that defines paradigm ``name``."""
        return str(Path(inspect.getsourcefile(self.paradigm_class(name))).resolve())

    @staticmethod
    def paradigm_class(name: str):
        from .paradigms import REGISTRY

        return REGISTRY[name]

    def perturb_code(self, name: str) -> list[str]:
        """Package files paradigm ``name``'s perturb job runs: the stage, its module and what that imports."""
        return module_closure(STAGE_CODE["perturb"] + (self.paradigm_class(name).__module__,))

    def paradigm_resources(self, name: str) -> list[str]:
        """The bundled word lists paradigm ``name`` reads: its class's ``resources`` and those of the
        normalisation pass every paradigm reads through (``Paradigm.read_resources``)."""
        from .paradigms.base import RESOURCES_DIR

        return [str(RESOURCES_DIR / r) for r in self.paradigm_class(name).read_resources()]

    @staticmethod
    def normalise_resources() -> list[str]:
        """The bundled word lists the normalisation pass reads (rublimp.trees.normalise.RESOURCES): inputs
        of agreement validation, which counts the normalised trees, and (through
        :meth:`paradigm_resources`) of every perturb job."""
        from .trees.normalise import RESOURCES, RESOURCES_DIR

        return [str(RESOURCES_DIR / r) for r in RESOURCES]

    def paradigm_options(self, name: str) -> dict[str, Any]:
        """The ``perturb.options`` paradigm ``name`` reads (its class's ``options``) that the config sets."""
        given = self.config["perturb"]["options"]
        return {k: given[k] for k in self.paradigm_class(name).options if k in given}

    def paradigm_option_files(self, name: str) -> list[str]:
        """Files named by paradigm ``name``'s options (options marked ``x-file`` in the schema)."""
        file_keys = {k for k, v in self.option_schema.items() if v.get("x-file")}
        return [str(v) for k, v in self.paradigm_options(name).items() if k in file_keys and v]

    def paradigm_inputs(self, name: str) -> dict[str, Any]:
        """What paradigm ``name``'s pool depends on besides the trees (rublimp.pools.ParadigmInputs):
        its code closure, word lists, option files and options."""
        return {
            "code": self.perturb_code(name),
            "resources": self.paradigm_resources(name),
            "option_files": self.paradigm_option_files(name),
            "options": self.paradigm_options(name),
        }

    @property
    def option_schema(self) -> dict[str, dict]:
        return self.schema["properties"]["perturb"]["properties"]["options"]["properties"]

    # -- code of the other stages --------------------------------------------
    @staticmethod
    def stage_code(stage: str) -> list[str]:
        """Package files a stage's job runs (see :data:`STAGE_CODE`)."""
        return module_closure(STAGE_CODE[stage])

    def parse_code(self) -> list[str]:
        backend = self.config["parse"]["backend"]
        others = [m for b, m in PARSE_BACKEND_MODULES.items() if b != backend]
        return module_closure(STAGE_CODE["parse"] + (PARSE_BACKEND_MODULES[backend],), exclude=others)

    def score_code(self, model: str) -> list[str]:
        """Package files a scoring job of ``model`` runs: the stage and the model's backend only."""
        return self.model_stage_code("score", model)

    def model_stage_code(self, stage: str, model: str) -> list[str]:
        """Package files a job of ``stage`` for ``model`` runs: the stage and the model's backend only
        (rublimp.scoring imports each backend lazily, so the other backends are not run)."""
        backend = self.model(model).backend
        # a backend module the stage's own module imports by name (acceptability reads the tokenizer
        # through rublimp.scoring.hf) is run whatever the model's backend
        direct: set[str] = set()
        for entry in STAGE_CODE[stage]:
            module = entry.partition(":")[0]
            path = _module_file(module, PACKAGE_DIR)
            direct |= _imported_modules(_parsed(path), module, path.name == "__init__.py", PACKAGE_DIR)
        others = [m for b, m in SCORING_BACKEND_MODULES.items() if b != backend and m not in direct]
        return module_closure(STAGE_CODE[stage] + (SCORING_BACKEND_MODULES[backend],), exclude=others)

    def demo_lm_code(self, stage: str) -> list[str]:
        backends = {self.model(m).backend for m in self.demo_models}
        others = [m for b, m in SCORING_BACKEND_MODULES.items() if b not in backends]
        return module_closure(STAGE_CODE[stage], exclude=others)

    # -- models -----------------------------------------------------------
    def _resolve_models(self) -> list[ModelSpec]:
        scoring = self.config["scoring"]
        out = []
        seen = set()
        for i, m in enumerate(self.config["models"]):
            key = f"models[{i}]"
            name = m["name"]
            if name in seen:
                raise InputError(f"config key {key}.name: model name {name!r} used twice")
            seen.add(name)
            demo = bool(m["demo"])
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
                    decontaminate=bool(m["decontaminate"]),
                    evaluate=bool(m["evaluate"]),
                    # a model's own setting, else the scoring-wide one (whose default is in the schema)
                    device=m.get("device", scoring["device"]),
                    dtype=m.get("dtype", scoring["dtype"]),
                    batch_tokens=_opt_int(m.get("batch_tokens", scoring.get("batch_tokens"))),
                    trust_remote_code=bool(m["trust_remote_code"]),
                    tier=int(m["tier"]),
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
        for i, m in enumerate(self.models):
            if not m.demo:
                from .scoring import check_model_loadable  # scipy & co.: only when there is a model to check

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
        return self.config["curation"]["t_max"]

    @property
    def tier0_models(self) -> list[str]:
        return [m.name for m in self.models if m.decontaminate and m.tier == 0]

    @property
    def cascaded_models(self) -> list[str]:
        """Decontamination models scored only on the tier-0 survivors (the cascade)."""
        return [m.name for m in self.models if m.decontaminate and m.tier >= 1]

    def model_inputs(self, name: str) -> list[str]:
        m = self.model(name)
        return [f"{self.outdir}/models/{name}/training.json"] if m.demo else []

    # -- CPU threads of a job (Snakemake `threads:`; SLURM --cpus-per-task follows them) ----------
    @property
    def cpu_threads(self) -> int:
        """Torch threads of a CPU job that runs a model (demo-LM training and check): ``scoring.threads``, else 1."""
        return int(self.config["scoring"]["threads"] or 1)

    def model_threads(self, name: str) -> int:
        """CPU threads of a job that runs model ``name`` (scoring, metalinguistic prompting).

        ``scoring.threads`` when the config sets it. Unset (null): 1 for a model on the CPU, where
        parallelism comes from Snakemake running jobs side by side; for a model on GPUs, one CPU
        per GPU plus one, the process that reads the pools, tokenizes and writes the tables (vLLM
        runs a worker process per GPU beside its engine). The scorer sets torch's thread count to
        this value, and the rules give it as their ``threads``, which the SLURM executor asks for
        as ``--cpus-per-task``.
        """
        threads = self.config["scoring"]["threads"]
        if threads:
            return int(threads)
        gpus = self.model(name).gpus
        return gpus + 1 if gpus else 1

    # -- other settings ---------------------------------------------------
    @property
    def parse_gpus(self) -> int:
        """GPUs a parse job needs: one for stanza with ``use_gpu``, none for slovnet."""
        parse = self.config["parse"]
        return int(parse["backend"] == "stanza" and bool(parse["stanza"]["use_gpu"]))

    @property
    def n_shards(self) -> int:
        """parse.shards (used unless parse.sentences_per_shard is set)."""
        return int(self.config["parse"]["shards"])

    @property
    def sentences_per_shard(self) -> int | None:
        """parse.sentences_per_shard: the shard count then follows the corpus size (rules/parse.smk)."""
        value = self.config["parse"].get("sentences_per_shard")
        return None if value is None else int(value)

    def _check_consistency(self) -> None:
        ks = self.config["scoring"]["ks"]
        k = self.config["curation"]["k"]
        if k not in ks:
            raise InputError(f"config key curation.k: K={k} must be one of scoring.ks {ks}")
        bins = self.config["curation"]["length_bins"]
        if list(bins) != sorted(set(bins)):
            raise InputError(f"config key curation.length_bins: edges must be strictly increasing, got {bins}")
