"""Core Data SQLite schema naming for a new store: entity numbers, tables, columns, join tables and
indexes named as Core Data names them in real stores.

Handles what the `tasks` sample model needs and a little more: root entities only (no sub-entities), attributes,
to-one relationships, ordered to-many with a to-one inverse (Z_FOK_), to-many without an inverse (hidden column) and
many-to-many pairs on two different entities (join table). It refuses what it does not implement.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import coredata_hash as ch

# Declared SQL type of each attribute type.
DECLARED_TYPE = {
    ch.INTEGER16: "INTEGER", ch.INTEGER32: "INTEGER", ch.INTEGER64: "INTEGER", ch.BOOLEAN: "INTEGER",
    ch.DOUBLE: "FLOAT", ch.FLOAT: "FLOAT", ch.DECIMAL: "DECIMAL", ch.STRING: "VARCHAR", ch.DATE: "TIMESTAMP",
    ch.BINARY: "BLOB", ch.TRANSFORMABLE: "BLOB", ch.UUID: "BLOB", ch.URI: "VARCHAR",
}
# Column groups in the order the DDL lists them (integers, then keys, timestamps, floats, varchars, blobs).
GROUP_ORDER = ["INTEGER", "KEY", "TIMESTAMP", "FLOAT", "DECIMAL", "VARCHAR", "BLOB"]


@dataclass
class Column:
    name: str
    declared: str
    group: str
    sort_key: str          # property name the column comes from; orders columns inside a group
    sub_order: int = 0     # 0 = the key itself, 1 = its Z_FOK_ column right after it


@dataclass
class Table:
    name: str
    columns: List[Column] = field(default_factory=list)
    indexes: List[Tuple[str, List[str]]] = field(default_factory=list)   # (index name, columns)
    join_tables: List["JoinTable"] = field(default_factory=list)           # join tables this entity names


@dataclass
class JoinTable:
    name: str
    first: str
    second: str
    extra_columns: List[str] = field(default_factory=list)

    @property
    def index(self) -> Tuple[str, List[str]]:
        return (f"{self.name}_{self.second}_INDEX", [self.second, self.first])


@dataclass
class Layout:
    entity_numbers: Dict[str, int]
    tables: Dict[str, Table]                       # by entity name
    column_of: Dict[Tuple[str, str], str]          # (entity, property) -> column
    fok_of: Dict[Tuple[str, str], str]             # (entity, to-one property) -> Z_FOK_ column
    join_of: Dict[Tuple[str, str], Tuple[JoinTable, str, str]]   # (entity, to-many) -> (table, own col, other col)

    def create_statements(self) -> List[str]:
        """DDL in the order real stores list it: entity tables (each followed by the join tables it names), their
        indexes in the same order, then the system tables."""
        tables, indexes = [], []
        for entity in sorted(self.entity_numbers, key=self.entity_numbers.get):
            t = self.tables[entity]
            cols = ", ".join(["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] +
                             [f"{c.name} {c.declared}" for c in ordered_columns(t.columns)])
            tables.append(f"CREATE TABLE {t.name} ( {cols} )")
            for idx, icols in t.indexes:
                indexes.append(f"CREATE INDEX {idx} ON {t.name} ({', '.join(icols)})")
            for j in t.join_tables:
                jcols = ", ".join([f"{j.first} INTEGER", f"{j.second} INTEGER"] +
                                  [f"{c} INTEGER" for c in j.extra_columns] +
                                  [f"PRIMARY KEY ({j.first}, {j.second})"])
                tables.append(f"CREATE TABLE {j.name} ( {jcols} )")
                idx, icols = j.index
                indexes.append(f"CREATE INDEX {idx} ON {j.name} ({', '.join(icols)})")
        system = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        return tables + indexes + system


def ordered_columns(columns: List[Column]) -> List[Column]:
    return sorted(columns, key=lambda c: (GROUP_ORDER.index(c.group), c.sort_key.encode(), c.sub_order))


def layout(entities: List[ch.Entity]) -> Layout:
    for e in entities:
        if e.superentity:
            raise NotImplementedError("sub-entities")
    by_name = {e.name: e for e in entities}
    # Roots sorted by name (byte order), numbered from 1 (no sub-entities here).
    names = sorted(by_name, key=lambda n: n.encode())
    number = {n: i + 1 for i, n in enumerate(names)}
    tables = {n: Table("Z" + n.upper()) for n in names}
    claimed: Dict[str, Dict[str, int]] = {n: {} for n in names}
    column_of: Dict[Tuple[str, str], str] = {}
    fok_of: Dict[Tuple[str, str], str] = {}
    join_of: Dict[Tuple[str, str], Tuple[JoinTable, str, str]] = {}

    def claim(entity: str, base: str) -> str:
        # Within one table the first claimant keeps the bare name, later ones get 1, 2, ….
        seen = claimed[entity]
        n = seen.get(base)
        seen[base] = 0 if n is None else n + 1
        return base if n is None else f"{base}{n + 1}"

    def inverse_of(rel: ch.Relationship) -> Optional[ch.Relationship]:
        if not rel.inverse:
            return None
        for p in by_name[rel.destination].properties:
            if isinstance(p, ch.Relationship) and p.name == rel.inverse:
                return p
        raise ValueError(f"inverse {rel.inverse} of {rel.name} not found")

    # First pass, entities in Z_ENT order: own attributes, then to-one key columns.
    for n in names:
        e = by_name[n]
        for p in sorted((p for p in e.properties if isinstance(p, ch.Attribute)), key=lambda p: p.name.encode()):
            if p.transient:
                continue
            col = claim(n, "Z" + p.name.upper())
            column_of[(n, p.name)] = col
            declared = DECLARED_TYPE[p.type]
            tables[n].columns.append(Column(col, declared, declared, p.name))
        for p in sorted((p for p in e.properties if isinstance(p, ch.Relationship) and p.max_count == 1),
                        key=lambda p: p.name.encode()):
            col = claim(n, "Z" + p.name.upper())
            column_of[(n, p.name)] = col
            tables[n].columns.append(Column(col, "INTEGER", "KEY", p.name))
            tables[n].indexes.append((f"{tables[n].name}_{col}_INDEX", [col]))

    # Second pass, entities in name order: Z_FOK_ columns, hidden to-many keys, join tables.
    done = set()
    for n in names:
        e = by_name[n]
        for p in sorted((p for p in e.properties if isinstance(p, ch.Relationship)), key=lambda p: p.name.encode()):
            inv = inverse_of(p)
            if p.max_count == 1:
                if inv is not None and inv.max_count != 1 and inv.ordered:
                    fok = "Z_FOK_" + p.name.upper()
                    fok_of[(n, p.name)] = fok
                    tables[n].columns.append(Column(fok, "INTEGER", "KEY", p.name, 1))
                continue
            if inv is None:
                dest = p.destination
                col = claim(dest, f"Z{number[n]}{p.name.upper()}")
                column_of[(n, p.name)] = col
                tables[dest].columns.append(Column(col, "INTEGER", "KEY", p.name))
                tables[dest].indexes.append((f"{tables[dest].name}_{col}_INDEX", [col]))
                continue
            if inv.max_count == 1 or (n, p.name) in done:
                continue  # to-many with a to-one inverse: the destination's key column holds it
            f = p.destination
            if f == n:
                raise NotImplementedError("same-entity many-to-many: take the table name from a template store")
            # R = p on entity e (visited first), I = inv on entity f.
            first = f"Z_{number[n]}{inv.name.upper()}"
            second = f"Z_{number[f]}{p.name.upper()}"
            extra = []
            if inv.ordered:
                extra.append(f"Z_FOK_{number[n]}{inv.name.upper()}")
            if p.ordered:
                extra.append(f"Z_FOK_{number[f]}{p.name.upper()}")
            j = JoinTable(f"Z_{number[n]}{p.name.upper()}", first, second, extra)
            tables[n].join_tables.append(j)
            # The first column holds the keys of entity n's rows, the second those of f's rows.
            join_of[(n, p.name)] = (j, first, second)
            join_of[(f, inv.name)] = (j, second, first)
            done.add((n, p.name))
            done.add((f, inv.name))
    return Layout(number, tables, column_of, fok_of, join_of)
