"""Make a demo memory: what a few assistants would have written over some weeks of work.

    python scripts/demo_memory.py demo.db                 # ~300 entities, hand-written core + filler
    python scripts/demo_memory.py big.db --entities 10000 # for benchmarks (first paint, layout)

People, projects, technologies, concepts, decisions and problems, observations in English and
Spanish, typed relations, several clients (claude-desktop, cursor, claude-code, opencode) writing
on different days, and a reflect pass so there are insights to review. Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402

CLIENTS = ("claude-desktop", "cursor", "claude-code", "opencode")

CORE: list[tuple[str, str, list[str]]] = [
    ("Ada Lovelace", "Person", ["Leads the data platform team", "Prefers short design docs over long meetings",
                                "Habla español e inglés; escribe las revisiones en inglés"]),
    ("Grace Hopper", "Person", ["Maintains the billing service", "On call the first week of every month"]),
    ("Alan Turing", "Person", ["Works on the search relevance project", "Asked for weekly summaries on Fridays"]),
    ("Marta Sánchez", "Person", ["Diseñadora de producto del equipo de búsqueda",
                                 "Prefiere prototipos en Figma antes de escribir código"]),
    ("Search relevance", "Project", ["Improve ranking of the help-center search", "Target: recall@5 above 0.9",
                                     "Deadline moved to the end of the quarter"]),
    ("Billing service", "Project", ["Monthly invoices for 40k customers", "Migrating from cron jobs to a queue"]),
    ("Data platform", "Project", ["Event ingestion and the analytics warehouse",
                                  "Plataforma de datos: ingesta de eventos y almacén analítico"]),
    ("Mobile app", "Project", ["React Native app for iOS and Android", "Offline mode requested by users"]),
    ("PostgreSQL", "Technology", ["Main transactional database, version 16", "Read replicas in two regions"]),
    ("Redis", "Technology", ["Cache and rate limiting", "Memory use grows during the monthly billing run"]),
    ("Kafka", "Technology", ["Event stream between services", "Three brokers; retention 7 days"]),
    ("Python", "Technology", ["Most backend services are written in Python 3.12"]),
    ("TypeScript", "Technology", ["Front-end and the mobile app"]),
    ("SQLite", "Technology", ["Used for local caches and tests"]),
    ("Embeddings", "Concept", ["Vector representations of text used for semantic search",
                               "Los embeddings multilingües permiten buscar por significado"]),
    ("Idempotency", "Concept", ["Retries must not double-charge customers"]),
    ("Backpressure", "Concept", ["Consumers slow producers down instead of dropping events"]),
    ("Caching", "Concept", ["Cache invalidation on price changes caused stale invoices once"]),
    ("Use a queue for invoices", "Decision", ["Decided on 2026-10-02 to move invoice generation to Kafka",
                                              "Reason: cron jobs overlapped and double-sent emails"]),
    ("Hybrid search", "Decision", ["Combine BM25 with vector search using reciprocal rank fusion"]),
    ("Duplicate invoices", "Problem", ["Some customers received two invoices in September", "status: resolved"]),
    ("Slow search on long queries", "Problem", ["Queries over 20 words take more than 2 seconds",
                                                "status: open"]),
    ("Redis memory spikes", "Problem", ["Memory spikes to 90% during billing runs", "status: open"]),
    ("Search", "Domain", ["Information retrieval"]),
    ("Payments", "Domain", ["Billing, invoices and refunds"]),
]

CORE_RELATIONS = [
    ("Ada Lovelace", "WORKS_ON", "Data platform"), ("Grace Hopper", "WORKS_ON", "Billing service"),
    ("Alan Turing", "WORKS_ON", "Search relevance"), ("Marta Sánchez", "WORKS_ON", "Search relevance"),
    ("Marta Sánchez", "WORKS_ON", "Mobile app"), ("Ada Lovelace", "KNOWS", "Grace Hopper"),
    ("Search relevance", "USES", "PostgreSQL"), ("Search relevance", "USES", "Python"),
    ("Billing service", "USES", "PostgreSQL"), ("Billing service", "USES", "Redis"),
    ("Billing service", "USES", "Kafka"), ("Data platform", "USES", "Kafka"), ("Data platform", "USES", "Python"),
    ("Mobile app", "USES", "TypeScript"), ("Mobile app", "USES", "SQLite"), ("Mobile app", "USES", "Redis"),
    ("Search relevance", "APPLIES", "Embeddings"), ("Hybrid search", "APPLIES", "Embeddings"),
    ("Search relevance", "HAS", "Slow search on long queries"), ("Billing service", "HAS", "Duplicate invoices"),
    ("Billing service", "HAS", "Redis memory spikes"), ("Duplicate invoices", "SOLVED_BY", "Use a queue for invoices"),
    ("Duplicate invoices", "INSTANCE_OF", "Idempotency"), ("Redis memory spikes", "INSTANCE_OF", "Caching"),
    ("Use a queue for invoices", "APPLIES", "Backpressure"), ("Data platform", "APPLIES", "Backpressure"),
    ("Search relevance", "IN_DOMAIN", "Search"), ("Billing service", "IN_DOMAIN", "Payments"),
    ("Search relevance", "INFORMED_BY", "Hybrid search"), ("Mobile app", "APPLIES", "Caching"),
    ("Data platform", "APPLIES", "Idempotency"), ("Slow search on long queries", "INSTANCE_OF", "Embeddings"),
]

FIRST = ["Lucía", "Pablo", "Sofía", "Diego", "Elena", "Hugo", "Nora", "Iván", "Clara", "Mateo", "Irene", "Omar",
         "Julia", "Bruno", "Alba", "Tomás", "Vera", "Leo", "Noa", "Marco"]
LAST = ["García", "Martín", "López", "Ruiz", "Navarro", "Romero", "Torres", "Gil", "Vidal", "Serrano", "Molina",
        "Ortega", "Castro", "Rubio", "Marín", "Iglesias"]
TOPICS = ["checkout", "onboarding", "search", "billing", "notifications", "reporting", "auth", "sync", "exports",
          "pricing", "support", "analytics", "recommendations", "inventory", "scheduling", "permissions"]
TECH = ["PostgreSQL", "Redis", "Kafka", "Python", "TypeScript", "SQLite", "Go", "Rust", "Terraform", "Docker",
        "Kubernetes", "React", "FastAPI", "Celery", "ClickHouse", "Elasticsearch", "gRPC", "GraphQL", "Nginx", "S3"]
CONCEPTS = ["Idempotency", "Backpressure", "Caching", "Embeddings", "Rate limiting", "Feature flags", "Sharding",
            "Event sourcing", "Retries", "Observability", "Accessibility", "Localization", "Privacy"]
FACTS_EN = ["Discussed in the {t} review on {d}", "Owner asked to revisit {t} next sprint",
            "Latency of {t} went from {a} ms to {b} ms", "{n} customers affected by the {t} incident",
            "Agreed to document the {t} API before the release", "Pairing session on {t} with the new hire"]
FACTS_ES = ["Se habló de {t} en la reunión del {d}", "Pendiente: revisar {t} antes de la próxima versión",
            "El equipo prefiere simplificar {t}", "La latencia de {t} bajó de {a} ms a {b} ms"]


def _fact(rng: random.Random, topic: str, day: datetime) -> str:
    template = rng.choice(FACTS_ES if rng.random() < 0.3 else FACTS_EN)
    return template.format(t=topic, d=day.strftime("%Y-%m-%d"), a=rng.randint(200, 900), b=rng.randint(20, 190),
                           n=rng.randint(3, 900))


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def generate(path: Path, entities: int = 300, *, seed: int = 7, days: int = 21, reflect: bool = True,
             embeddings: str = "none") -> Path:
    """Write a demo memory of about ``entities`` entities to ``path`` (which must not exist)."""
    if path.exists():
        raise SystemExit(f"{path} exists; choose a new file.")
    rng = random.Random(seed)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=days)
    clock = Clock(start)
    memory = Memory(Settings(db=path, embeddings=embeddings), clock=clock)
    try:
        def step(**delta: float) -> None:
            clock.now += timedelta(**delta)

        actor = CLIENTS[0]
        memory.create_entities([{"name": n, "entityType": t, "observations": o} for n, t, o in CORE], actor=actor)
        step(hours=3)
        memory.create_relations([{"from": a, "relationType": r, "to": b} for a, r, b in CORE_RELATIONS],
                                actor=CLIENTS[1])
        filler = max(0, entities - len(CORE))
        names: list[tuple[str, str]] = [(n, t) for n, t, _ in CORE]
        made = 0
        taken = {n for n, _ in names}
        batch: list[dict[str, object]] = []
        while made < filler:
            kind = rng.choices(["Person", "Project", "Problem", "Decision", "Concept", "Technology"],
                               weights=[30, 22, 18, 12, 10, 8])[0]
            topic = rng.choice(TOPICS)
            if kind == "Person":
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            elif kind == "Technology":
                name = f"{rng.choice(TECH)} for {topic}"
            elif kind == "Concept":
                name = f"{rng.choice(CONCEPTS)} in {topic}"
            else:
                name = f"{topic.capitalize()} {kind.lower()}"
            if name in taken:  # unique names; a number only when the vocabulary runs out
                name = f"{name} {made}"
            taken.add(name)
            facts = [_fact(rng, topic, clock.now) for _ in range(rng.randint(1, 4))]
            batch.append({"name": name, "entityType": kind, "observations": facts})
            names.append((name, kind))
            made += 1
            if len(batch) == 200 or made == filler:
                memory.create_entities(batch, actor=rng.choice(CLIENTS))
                batch = []
                step(minutes=rng.randint(5, 600) * max(1, 300 // max(entities, 1)))
        relation_types = ["KNOWS", "WORKS_ON", "USES", "DEPENDS_ON", "RELATED_TO", "APPLIES", "HAS"]
        rels = []
        for _ in range(max(0, 2 * filler)):
            (a, _ta), (b, _tb) = rng.sample(names, 2)
            rels.append({"from": a, "relationType": rng.choice(relation_types), "to": b})
        for i in range(0, len(rels), 500):
            memory.create_relations(rels[i:i + 500], actor=rng.choice(CLIENTS))
            step(hours=rng.randint(1, 12))
        # A last few days of ordinary assistant work, for the activity pane.
        clock.now = datetime.now(UTC).replace(microsecond=0) - timedelta(days=3)
        for day in range(3):
            for _ in range(6):
                name, _kind = rng.choice(names[: len(CORE)])
                memory.add_observations([{"entityName": name, "contents": [_fact(rng, name, clock.now)]}],
                                        actor=rng.choice(CLIENTS))
                step(minutes=rng.randint(10, 120))
            clock.now = datetime.now(UTC).replace(microsecond=0) - timedelta(days=2 - day, hours=2)
        if reflect:
            memory.reflect(actor="hipocampo")
    finally:
        memory.close()
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the new memory file")
    parser.add_argument("--entities", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-reflect", action="store_true")
    parser.add_argument("--embeddings", default="none", choices=["none", "onnx"],
                        help="compute vectors now (onnx) or leave them to the app (none)")
    args = parser.parse_args(argv)
    path = generate(args.out, args.entities, seed=args.seed, reflect=not args.no_reflect,
                    embeddings=args.embeddings)
    if args.embeddings == "onnx":
        with Memory(Settings(db=path)) as memory:
            memory.embed_pending()
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
