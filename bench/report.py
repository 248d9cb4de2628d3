"""Machine description and the plain-text results table."""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata
from pathlib import Path

from bench.stats import ratio

RECALL_TARGET_MS = 15.0  # recall p50 excluding the query embedding, at 100k memories
REMEMBER_TARGET_MS = 8.0  # remember p50, embedding included

HEADER = ("metric", "size", "ours p50", "ours p95", "floor p50", "ratio", "note")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = "?"
    try:
        mem_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        pass
    import apsw

    info = {
        "code": code_version(), "nproc": len(os.sched_getaffinity(0)), "cpu": cpu, "ram_gb": mem_gb,
        "python": sys.version.split()[0], "platform": platform.platform(),
        "sqlite": apsw.sqlite_lib_version(), "apsw": _version("apsw"), "sqlite_vec": _version("sqlite-vec"),
        "numpy": _version("numpy"), "onnxruntime": _version("onnxruntime"),
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
    }
    try:
        from threadpoolctl import threadpool_info

        info["blas"] = [f"{p.get('internal_api')} {p.get('version')} {p.get('architecture')} "
                        f"threads={p.get('num_threads')}" for p in threadpool_info()]
    except Exception:  # threadpoolctl is optional
        pass
    return info


def code_version() -> str:
    """HEAD commit plus the uncommitted files of the measured packages (the code is measured as is)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "signet_pipeline", "signet_api", "signet_cli"],
                               cwd=root, capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    changed = [line[3:] for line in dirty if line.strip()]
    return head + (f" + uncommitted: {', '.join(changed)}" if changed else " (clean)")


def machine_lines(info: dict) -> list[str]:
    lines = [f"code: {info['code']}",
             f"machine: nproc={info['nproc']}  {info['cpu']}  RAM {info['ram_gb']} GB  {info['platform']}",
             f"python {info['python']}  sqlite {info['sqlite']} (apsw {info['apsw']})  sqlite-vec {info['sqlite_vec']}"
             f"  numpy {info['numpy']}  onnxruntime {info['onnxruntime']}"]
    blas = "; ".join(info.get("blas", [])) or "threadpoolctl not available"
    lines.append(f"BLAS: {blas}  (OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE']})")
    return lines


def _ms(value: float) -> str:
    return "" if value is None or value != value else f"{value:.2f}"


def _row(metric: str, size: int | str, ours: dict | None, floor: float | None = None, note: str = "") -> tuple:
    p50 = ours["p50"] if ours else None
    return (metric, f"{size:,}" if isinstance(size, int) else size, _ms(p50), _ms(ours["p95"] if ours else None),
            _ms(floor), _ms(ratio(p50, floor)) if floor is not None and p50 is not None else "", note)


def rows(results: dict) -> list[tuple]:
    """Table rows; a stage this version of recall does not report is left out."""
    return [r for r in _all_rows(results) if r[2] != "" or r[0].startswith(("bulk", "API"))]


def _all_rows(results: dict) -> list[tuple]:
    out: list[tuple] = []
    for size_key, r in results["sizes"].items():
        size = int(size_key)
        b = r["build"]
        embed = r.get("diagnostics", {}).get("embed")
        out.append(("bulk ingest, memories/s", f"{size:,}", f"{b['rate_per_s']:.0f}/s", "",
                    f"{embed['rate_per_s']:.0f}/s" if embed else "",
                    _ms(ratio(embed["rate_per_s"], b["rate_per_s"])) if embed else "",
                    f"remember_many, {b['seconds']:.0f} s" + (f"; cached store, built {b['built_at'][:10]}"
                                                               if b["cached"] else "")
                    + "; floor = embedder.embed alone"))
        out.append(_row("service open (index load), ms", size, {"p50": r["open_ms"], "p95": None}, r["floor_load_ms"],
                        "floor: load matrix from embeddings"))
        c, f, v = r["recall"]["cached"], r["recall"]["fresh"], r["recall"]["sqlite_vec"]
        target = f"target <= {RECALL_TARGET_MS:.0f} ms at 100k" if size >= 100_000 else ""
        out.append(_row("recall excl. embedding (numpy)", size, c["ours"]["wall"], c["floor"]["total"]["p50"], target))
        out.append(_row("recall excl. embedding (sqlite-vec)", size, v["ours"]["wall"], c["floor"]["total"]["p50"]))
        if "graph_off" in r["recall"]:
            g = r["recall"]["graph_off"]["ours"]
            out.append(_row("recall excl. embedding, graph paths off", size, g["wall"], c["floor"]["total"]["p50"],
                            f"keyword hit@10 {g['keyword_target_hit_at_10']} off vs "
                            f"{c['ours']['keyword_target_hit_at_10']} on"))
        out.append(_row("recall incl. embedding (numpy)", size, f["ours"]["wall"], f["floor"]["total"]["p50"],
                        "floor = embed_one + FTS + numpy"))
        st = c["ours"]["stages"]
        out.append(_row("  stage memory_fts, all queries", size, st.get("memory_fts"), c["floor"]["fts"]["p50"]))
        for kind in ("keyword", "paraphrase", "frequent"):
            ours_kind = c["ours"]["by_kind"].get(kind, {}).get("memory_fts")
            floor_kind = c["floor"]["fts_by_kind"].get(kind)
            out.append(_row(f"  stage memory_fts, {kind} queries", size, ours_kind,
                            floor_kind["p50"] if floor_kind else None))
        out.append(_row("  stage vector_search (numpy)", size, st.get("vector_search"), c["floor"]["vector"]["p50"]))
        pieces = r.get("diagnostics", {}).get("pieces")
        if pieces:
            plan = pieces["id_mapping_plan"][0] if pieces["id_mapping_plan"] else ""
            out.append(_row("    of which index.search (numpy)", size, pieces["index_search"],
                            c["floor"]["vector"]["p50"]))
            out.append(_row("    of which id mapping SQL", size, pieces["id_mapping"], None,
                            f"live_ids_by_hashes; plan: {plan}"))
        out.append(_row("  stage vector_search (sqlite-vec)", size, v["ours"]["stages"].get("vector_search"),
                        c["floor"]["vector"]["p50"]))
        out.append(_row("  stage final_rank", size, st.get("final_rank")))
        hit = ("all cache hits (0 embedder calls)" if c["cache_hit_verified"]
               else f"{c['embed_calls']} embedder calls: NOT all cache hits")
        fs = f["ours"]["stages"]
        if "query_embedding" in fs:  # recall runs embed + vector search on a worker beside FTS
            out.append(_row("  stage query_embedding (cached)", size, st.get("query_embedding"), None, hit))
            out.append(_row("  stage query_embedding (fresh)", size, fs["query_embedding"],
                            f["floor"]["embed"]["p50"], "floor = embed_one"))
            out.append(_row("  stage query_embedding_wait (cached)", size, st.get("query_embedding_wait"), None,
                            "main thread waiting for the vector leg after FTS"))
            out.append(_row("  stage query_embedding_wait (fresh)", size, fs.get("query_embedding_wait")))
        else:
            out.append(_row("  stage query_embedding_wait (cached)", size, st.get("query_embedding_wait"), None, hit))
            out.append(_row("  stage query_embedding_wait (fresh)", size, fs.get("query_embedding_wait"),
                            f["floor"]["embed"]["p50"], "floor = embed_one"))
        if "write" in r:
            w = r["write"]
            out.append(_row("remember() in process", size, w["ours"], w["embed_floor"]["p50"],
                            f"floor = embed_one; target <= {REMEMBER_TARGET_MS:.0f} ms"))
            out.append(_row("  remember() minus embed_one", size, w["minus_embedding"]))
            if "no_linker" in w:
                out.append(_row("  remember(), inline linker off", size, w["no_linker"], None,
                                "same store, alternate calls; the difference prices the linker"))
        if "http" in r:
            h = r["http"]
            out.append(_row("HTTP remember", size, h["remember"], r["write"]["ours"]["p50"],
                            "floor = in-process remember()"))
            out.append(_row("HTTP recall, fresh query", size, h["recall_fresh"], f["ours"]["wall"]["p50"],
                            "floor = in-process recall incl. embedding"))
            out.append(_row("HTTP recall, cached query vector", size, h["recall_cached"], c["ours"]["wall"]["p50"],
                            "floor = in-process recall excl. embedding"))
            out.append(("API RSS after load, MB", f"{size:,}", f"{h['rss_mb']}", f"peak {h['peak_rss_mb']}", "", "",
                        f"startup {h['startup_s']} s"))
    return out


def table(lines: list[tuple]) -> str:
    all_rows = [HEADER, *lines]
    widths = [max(len(str(r[i])) for r in all_rows) for i in range(len(HEADER))]
    right = {1, 2, 3, 4, 5}

    def fmt(r: tuple) -> str:
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        return " | ".join(cells).rstrip()

    sep = "-+-".join("-" * w for w in widths)
    return "\n".join([fmt(HEADER), sep, *(fmt(r) for r in lines)])


def quality_lines(results: dict) -> list[str]:
    out = []
    for size_key, r in results["sizes"].items():
        c = r["recall"]["cached"]["ours"]
        load = " / ".join(f"{r[k][0]:.2f}" for k in ("load_before", "load_after") if k in r)
        out.append(f"size {int(size_key):,}: keyword-query target in top 10: {c['keyword_target_hit_at_10']}; "
                   f"avg results returned {c['avg_returned']}; methods {c['methods']}; "
                   f"1-min load average before / after: {load}")
    return out


def markdown(headers: list[str], lines: list[list]) -> str:
    """A Markdown table (what docs/BENCHMARKS.md holds), numbers right-aligned."""
    align = ["---:" if lines and isinstance(lines[0][i], int | float) else "---" for i in range(len(headers))]
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(f"{c:,}" if isinstance(c, int) else str(c) for c in r) + " |" for r in lines]
    return "\n".join(out)
