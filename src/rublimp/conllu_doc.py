"""Dependency trees: reading, writing and navigating CoNLL-U sentences.

The ten CoNLL-U fields are read directly (see ``parse_block`` for why not with
the ``conllu`` library); on top this module gives exact line numbers in errors,
the character span of every token in the sentence text (so a perturbation
edits the original text, never re-joined tokens), and small tree helpers.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from .io import InputError, atomic_path, iter_text_lines

__all__ = [
    "Token",
    "Sentence",
    "read_conllu",
    "read_conllu_string",
    "write_conllu",
    "sentence_to_conllu",
]


@dataclass(slots=True)
class Token:
    """One syntactic word (multiword-token ranges and empty nodes are not kept).

    Slotted: a perturb job builds every token of the corpus, and paradigms read their
    fields millions of times (slots make both faster and tokens smaller).
    """

    id: int
    form: str
    lemma: str
    upos: str
    xpos: str | None
    feats: dict[str, str]
    head: int
    deprel: str
    deps: str | None = None
    misc: dict[str, str] = field(default_factory=dict)
    start: int = -1  # character offset of the form in Sentence.text, -1 when not aligned
    end: int = -1

    def feat(self, name: str) -> str | None:
        return self.feats.get(name)

    @property
    def base_deprel(self) -> str:
        """The universal relation without its subtype (``nsubj:pass`` → ``nsubj``)."""
        return self.deprel.partition(":")[0]


@dataclass
class Sentence:
    sent_id: str
    text: str
    tokens: list[Token]
    domain: str = ""
    meta: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._children: dict[int, tuple[Token, ...]] | None = None

    # -- navigation -------------------------------------------------------
    def __len__(self) -> int:
        return len(self.tokens)

    def token(self, token_id: int) -> Token:
        """Token by its 1-based CoNLL-U id."""
        return self.tokens[token_id - 1]

    def head_of(self, tok: Token) -> Token | None:
        return None if tok.head == 0 else self.token(tok.head)

    def children(self, tok: Token | int, deprel: str | None = None) -> list[Token]:
        """Dependents of ``tok``; ``deprel`` filters on the base relation or the full one."""
        kids = self._children
        if kids is None:
            # the dependents of every head, built on first use (a sentence's tokens never change
            # after construction: repairs build a new Sentence)
            acc: dict[int, list[Token]] = {}
            for t in self.tokens:
                acc.setdefault(t.head, []).append(t)
            kids = self._children = {h: tuple(ts) for h, ts in acc.items()}
        out = kids.get(tok if isinstance(tok, int) else tok.id)
        if not out:
            return []
        if deprel is None:
            return list(out)
        return [t for t in out if t.deprel == deprel or t.base_deprel == deprel]

    def subtree(self, tok: Token | int) -> list[Token]:
        """``tok`` and all its descendants, in sentence order."""
        tid = tok if isinstance(tok, int) else tok.id
        seen = {tid}
        stack = [tid]
        while stack:
            for kid in self.children(stack.pop()):
                if kid.id not in seen:
                    seen.add(kid.id)
                    stack.append(kid.id)
        return [self.token(i) for i in sorted(seen)]

    def descends_from(self, tok: Token | int, ancestor: Token | int) -> bool:
        """Whether ``tok`` lies below ``ancestor`` (in its subtree, not ``ancestor`` itself); a cycle
        of heads in a broken tree ends the climb."""
        aid = ancestor if isinstance(ancestor, int) else ancestor.id
        seen = set()
        cur = self.token(tok) if isinstance(tok, int) else tok
        while cur.head and cur.id not in seen:
            seen.add(cur.id)
            if cur.head == aid:
                return True
            cur = self.token(cur.head)
        return False

    def roots(self) -> list[Token]:
        return [t for t in self.tokens if t.head == 0]

    def depth(self) -> int:
        """Tree depth: number of arcs on the longest root-to-leaf path (root alone = 1)."""
        best = 0
        for t in self.tokens:
            d, cur, steps = 1, t, 0
            while cur.head != 0 and steps <= len(self.tokens):
                cur = self.token(cur.head)
                d += 1
                steps += 1
            best = max(best, d)
        return best

    def is_aligned(self, *toks: Token) -> bool:
        return all(t.start >= 0 for t in (toks or self.tokens))

    def words(self) -> list[str]:
        return [t.form for t in self.tokens]

    def to_conllu(self) -> str:
        return sentence_to_conllu(self)


# -- alignment ------------------------------------------------------------
def _norm_char(c: str) -> str:
    c = c.lower()
    return "е" if c == "ё" else c


def align_tokens(text: str, tokens: Sequence[Token]) -> None:
    """Set ``start``/``end`` of every token by scanning ``text`` left to right.

    A token whose form is not found at the cursor (after whitespace) is searched
    for with case and ё/е folded; tokens that still cannot be placed keep -1,
    and the cursor does not move, so later tokens can still align.
    """
    cursor = 0
    folded = None  # the case/ё-folded text, made only when a token is not found as written
    for tok in tokens:
        form = tok.form
        pos = cursor
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if text.startswith(form, pos):
            tok.start, tok.end = pos, pos + len(form)
            cursor = tok.end
            continue
        if folded is None:
            folded = "".join(_norm_char(c) for c in text)
        ffold = "".join(_norm_char(c) for c in form)
        found = folded.find(ffold, cursor)
        # only accept a nearby match: nothing but whitespace/punctuation skipped
        if found >= 0 and all(not ch.isalnum() for ch in text[cursor:found]):
            tok.start, tok.end = found, found + len(form)
            cursor = tok.end
        else:
            tok.start = tok.end = -1


# -- reading --------------------------------------------------------------
#: FEATS/MISC column values already parsed (a corpus repeats a few thousand of them): each token
#: gets a copy of the memoised dict, 30 times faster than splitting the string again.
_KV_MEMO: dict[str, dict[str, str]] = {}


def _kv_field(value: str, what: str, path: str, lineno: int, *, require_value: bool) -> dict[str, str]:
    if value == "_" or value == "":
        return {}
    done = _KV_MEMO.get(value)
    if done is not None:
        return done.copy()
    if all("=" in item for item in value.split("|")):  # the common case: every item Name=Value
        out = dict(item.split("=", 1) for item in value.split("|"))
        if len(_KV_MEMO) > 100_000:
            _KV_MEMO.clear()
        _KV_MEMO[value] = out
        return out.copy()
    out = {}
    for item in value.split("|"):
        if "=" in item:
            k, v = item.split("=", 1)
        elif require_value:
            raise InputError(f"malformed CoNLL-U {what} item {item!r} (expected Name=Value)", path, lineno)
        else:
            k, v = item, ""
        out[k] = v
    return out


#: A control character inside one CoNLL-U line (tab separates the columns; see rublimp.io.CONTROL_CHARS_RE)
_LINE_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _check_control_chars(lines: list[str], first_line: int, path: str) -> None:
    """Reject a block with a control character in any line (a NUL byte in a form or the text
    would otherwise be inflected as an unknown word and reach a pair)."""
    if _LINE_CONTROL_RE.search("\n".join(lines)) is None:
        return
    for offset, line in enumerate(lines):
        match = _LINE_CONTROL_RE.search(line)
        if match is not None:
            raise InputError(
                f"control character U+{ord(match.group()):04X} at column {match.start() + 1}",
                path,
                first_line + offset,
            )


def parse_block(lines: list[str], first_line: int, path: str) -> Sentence:
    # A direct reader of the ten columns: the `conllu` library's generic parser
    # took 70% of the perturb stage's time (10 ms a sentence, measured), and
    # this one also knows the line number of every error.
    _check_control_chars(lines, first_line, path)
    meta: dict[str, str] = {}
    toks: list[Token] = []
    tok_lines: list[int] = []
    for offset, line in enumerate(lines):
        lineno = first_line + offset
        if line.startswith("#"):
            body = line[1:].strip()
            if "=" in body:
                k, v = body.split("=", 1)
                meta[k.strip()] = v.strip()
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(
                f"malformed CoNLL-U token line: expected 10 tab-separated fields, found {len(cols)}",
                path,
                lineno,
            )
        tid, form, lemma, upos, xpos, feats, head, deprel, deps, misc = cols
        if "-" in tid or "." in tid:
            continue  # multiword-token ranges and empty nodes are not kept
        if not tid.isdigit():
            raise InputError(f"malformed CoNLL-U token id {tid!r}", path, lineno)
        if head != "_" and not head.isdigit():
            raise InputError(f"malformed CoNLL-U head {head!r} (must be an integer)", path, lineno)
        tok_lines.append(lineno)
        toks.append(
            Token(
                int(tid),
                form,
                lemma or "_",
                upos or "_",
                None if xpos == "_" else xpos,
                _kv_field(feats, "FEATS", path, lineno, require_value=True),
                0 if head == "_" else int(head),
                deprel or "_",
                None if deps == "_" else deps,
                _kv_field(misc, "MISC", path, lineno, require_value=False),
            )
        )
    if not toks:
        raise InputError("CoNLL-U sentence block without token lines", path, first_line)
    _check_tree(toks, tok_lines, path, first_line)
    sent_id = meta.pop("sent_id", None) or f"{Path(path).name}:{first_line}"
    text = meta.pop("text", None)
    if text is None:
        text = _detokenize(toks)
    domain = meta.pop("domain", "")
    sent = Sentence(sent_id=sent_id, text=text, tokens=toks, domain=domain, meta=meta)
    align_tokens(text, toks)
    return sent


def dependency_cycle(heads: Sequence[int]) -> list[int] | None:
    """The first cycle (token ids, in head order) met when following each token's heads, or None
    when every token reaches the root (0). ``heads`` are 1-based heads of tokens 1..n, each in 0..n."""
    n = len(heads)
    state = [0] * (n + 1)  # 0 unseen, 1 on the current path, 2 reaches the root
    state[0] = 2
    for start in range(1, n + 1):
        path: list[int] = []
        node = start
        while state[node] == 0:
            state[node] = 1
            path.append(node)
            node = heads[node - 1]
        if state[node] == 1:  # came back to a token on the current path
            return path[path.index(node):]
        for p in path:
            state[p] = 2
    return None


def _check_tree(toks: Sequence[Token], tok_lines: Sequence[int], path: str, first_line: int) -> None:
    """A sentence must be one dependency tree: ids 1..n, heads in 0..n, one root, no cycle.

    Errors name the line of the offending token (the block's first line when the
    whole sentence is at fault).
    """
    n = len(toks)
    root_line = 0
    for i, (tok, lineno) in enumerate(zip(toks, tok_lines), start=1):
        if tok.id != i:
            raise InputError(f"token ids must run 1..n without gaps: expected {i}, found {tok.id}", path, lineno)
        if tok.head > n:
            raise InputError(f"token {tok.id} has head {tok.head} outside the sentence (ids 1..{n}, 0 = root)", path, lineno)
        if tok.head == tok.id:
            raise InputError(f"token {tok.id} is its own head (a cycle)", path, lineno)
        if tok.head == 0:
            if root_line:
                raise InputError(
                    f"second root: token {tok.id} has head 0, as does the token on line {root_line} "
                    "(a sentence has exactly one root)",
                    path,
                    lineno,
                )
            root_line = lineno
    cycle = dependency_cycle([t.head for t in toks])
    if cycle:
        raise InputError(
            f"dependency cycle through tokens {' -> '.join(map(str, cycle + [cycle[0]]))}"
            + ("" if root_line else " and no root (no token has head 0)"),
            path,
            tok_lines[min(cycle) - 1],
        )
    if not root_line:  # unreachable: without a root the heads always form a cycle
        raise InputError("sentence has no root (no token has head 0)", path, first_line)


def _detokenize(toks: Sequence[Token]) -> str:
    parts = []
    for t in toks:
        parts.append(t.form)
        if t.misc.get("SpaceAfter") != "No":
            parts.append(" ")
    return "".join(parts).strip()


def _iter_blocks(lines: Iterable[str]) -> Iterator[tuple[list[str], int]]:
    block: list[str] = []
    start = 0
    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n").rstrip("\r")
        if line.strip() == "":
            if block:
                yield block, start
                block = []
            continue
        if not block:
            start = lineno
        block.append(line)
    if block:
        yield block, start


def _decoded_lines(path: Path, bad_lines: dict[int, InputError]) -> Iterator[str]:
    """The lines of ``path`` decoded one by one; a line that is not UTF-8 is yielded as
    ``"\\x00"`` (a control character, so its block cannot parse) and its error kept in
    ``bad_lines`` under its line number."""
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                yield raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as err:
                bad_lines[lineno] = InputError(
                    f"not valid UTF-8 ({err.reason} at byte {err.start} of the line)", path, lineno
                )
                yield "\x00\n"


def iter_sentence_blocks(path: str | os.PathLike) -> Iterator[tuple[str | None, list[str], int]]:
    """Every tree block of a CoNLL-U file, unparsed: ``(raw # sent_id value or None, lines, first line)``.

    For callers that want a few trees of a large file by id without parsing the rest
    (:func:`parse_block` parses one). A line that is not UTF-8 comes as a NUL line, so its
    block fails to parse with a clear error.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("CoNLL-U file not found", path)
    for block, start in _iter_blocks(_decoded_lines(path, {})):
        if all(line.startswith("#") for line in block):
            continue
        raw = next((line.split("=", 1)[1].strip() for line in block
                    if line.startswith("# sent_id") and "=" in line), None)
        yield raw, block, start


def read_conllu(
    path: str | os.PathLike, *, on_error: Callable[[InputError], None] | None = None
) -> Iterator[Sentence]:
    """Stream the sentences of a CoNLL-U file.

    Malformed input (bad columns, not one tree, bytes that are not UTF-8, a control
    character anywhere but the column tabs) raises :class:`InputError` naming the file
    and line; with ``on_error``, the malformed sentence is skipped instead and its error
    passed to ``on_error`` (the caller counts and limits them).
    """
    path = Path(path)
    if not path.exists():
        raise InputError("CoNLL-U file not found", path)
    if on_error is None:
        for block, start in _iter_blocks(iter_text_lines(path)):
            if all(l.startswith("#") for l in block):
                continue
            yield parse_block(block, start, str(path))
        return
    if not path.is_file():
        raise InputError("not a file", path)
    bad_lines: dict[int, InputError] = {}
    for block, start in _iter_blocks(_decoded_lines(path, bad_lines)):
        if all(l.startswith("#") for l in block):
            continue
        if bad_lines:
            bad = [bad_lines.pop(n) for n in range(start, start + len(block)) if n in bad_lines]
            if bad:
                on_error(bad[0])
                continue
        try:
            sentence = parse_block(block, start, str(path))
        except InputError as err:
            on_error(err)
            continue
        yield sentence


def read_conllu_string(data: str, name: str = "<string>") -> list[Sentence]:
    return [
        parse_block(block, start, name)
        for block, start in _iter_blocks(data.splitlines())
        if not all(l.startswith("#") for l in block)
    ]


# -- writing --------------------------------------------------------------
def _fmt_feats(feats: dict[str, str]) -> str:
    if not feats:
        return "_"
    return "|".join(f"{k}={feats[k]}" for k in sorted(feats, key=str.lower))


def _fmt_misc(misc: dict[str, str]) -> str:
    if not misc:
        return "_"
    return "|".join(f"{k}={v}" if v != "" else k for k, v in misc.items())


def sentence_to_conllu(sent: Sentence) -> str:
    lines = [f"# sent_id = {sent.sent_id}", f"# text = {sent.text}"]
    if sent.domain:
        lines.append(f"# domain = {sent.domain}")
    for k, v in sent.meta.items():
        lines.append(f"# {k} = {v}")
    for t in sent.tokens:
        lines.append(
            "\t".join(
                [
                    str(t.id),
                    t.form,
                    t.lemma or "_",
                    t.upos or "_",
                    t.xpos or "_",
                    _fmt_feats(t.feats),
                    str(t.head),
                    t.deprel or "_",
                    t.deps or "_",
                    _fmt_misc(t.misc),
                ]
            )
        )
    return "\n".join(lines) + "\n\n"


def write_conllu(
    sentences: Iterable[Sentence], path: str | os.PathLike, *, empty_error: Callable[[], Exception] | None = None
) -> int:
    """Write sentences atomically; returns how many were written.

    With ``empty_error``, writing no sentence raises ``empty_error()`` instead,
    and ``path`` is left as it was.
    """
    n = 0
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            for s in sentences:
                fh.write(sentence_to_conllu(s))
                n += 1
        if n == 0 and empty_error is not None:
            raise empty_error()
    return n
