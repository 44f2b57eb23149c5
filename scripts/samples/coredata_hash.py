"""Core Data model version hashes (NSStoreModelVersionHashes), as real stores' Z_METADATA holds them
(verify_hashes.py reproduces the stored hashes of real stores with this code).

H = SHA-256; integers little-endian; strings UTF-8 without terminator.

  property base  P = H(name ‖ u16(optional | transient<<1 | readOnly<<2) ‖ [modifier])
  attribute      A = H(P ‖ u32(attributeType) ‖ [01 if external storage] ‖ [01 if preserved in history])
  relationship   R = H(P ‖ destination name ‖ [inverse name] ‖ u32(maxCount) ‖ u32(minCount) ‖ [01 00 if ordered])
  entity         E = H(name ‖ u8 isAbstract ‖ [E(super)] ‖ property hashes in byte-wise name order ‖ [modifier]
                     ‖ uniqueness constraints joined with ".", sorted, empty ones skipped)
  checksum       base64(H(entity hashes concatenated in entity-name order))
  digest         base64(SHA-512(for each entity name in order: name ‖ hash))
"""
from __future__ import annotations

import base64
import hashlib
import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional

# NSAttributeType values.
INTEGER16, INTEGER32, INTEGER64 = 100, 200, 300
DECIMAL, DOUBLE, FLOAT = 400, 500, 600
STRING, BOOLEAN, DATE, BINARY = 700, 800, 900, 1000
UUID, URI, TRANSFORMABLE = 1100, 1200, 1800


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _u16(v: int) -> bytes:
    return struct.pack("<H", v & 0xFFFF)


def _u32(v: int) -> bytes:
    return struct.pack("<I", v & 0xFFFFFFFF)  # an archived -1 becomes ff ff ff ff


@dataclass
class Attribute:
    name: str
    type: int
    optional: bool = False
    transient: bool = False
    read_only: bool = False
    modifier: Optional[str] = None
    external_storage: bool = False
    preserves_in_history: bool = False
    derivation: Optional[str] = None          # derived attribute: predicate format of the expression
    derivation_filter: Optional[str] = None


@dataclass
class Relationship:
    name: str
    destination: str
    inverse: Optional[str]
    max_count: int                            # 1 = to-one, 0 = unbounded
    min_count: int = 0
    optional: bool = True
    ordered: bool = False
    transient: bool = False
    read_only: bool = False
    modifier: Optional[str] = None


@dataclass
class Entity:
    name: str
    properties: List[object] = field(default_factory=list)
    superentity: Optional[str] = None
    abstract: bool = False
    modifier: Optional[str] = None
    uniqueness_constraints: List[List[str]] = field(default_factory=list)


def _property_base(p) -> bytes:
    flags = (1 if p.optional else 0) | ((1 if p.transient else 0) << 1) | ((1 if p.read_only else 0) << 2)
    data = p.name.encode() + _u16(flags)
    if p.modifier is not None:
        data += p.modifier.encode()
    return _h(data)


def property_hash(p) -> bytes:
    if isinstance(p, Attribute):
        if p.derivation is not None:
            return _h(p.derivation.encode() + (p.derivation_filter.encode() if p.derivation_filter else b""))
        data = _property_base(p) + _u32(p.type)
        if p.external_storage:
            data += b"\x01"
        if p.preserves_in_history:
            data += b"\x01"
        return _h(data)
    if isinstance(p, Relationship):
        data = _property_base(p) + p.destination.encode()
        if p.inverse:
            data += p.inverse.encode()
        data += _u32(p.max_count) + _u32(p.min_count)
        if p.ordered:
            data += b"\x01\x00"
        return _h(data)
    raise TypeError(p)


def entity_hashes(entities: List[Entity]) -> Dict[str, bytes]:
    by_name = {e.name: e for e in entities}
    memo: Dict[str, bytes] = {}

    def all_properties(e: Entity) -> Dict[str, object]:
        props = dict(all_properties(by_name[e.superentity])) if e.superentity else {}
        for p in e.properties:
            props[p.name] = p
        return props

    def entity_hash(e: Entity) -> bytes:
        if e.name in memo:
            return memo[e.name]
        data = e.name.encode() + bytes([1 if e.abstract else 0])
        if e.superentity:
            data += entity_hash(by_name[e.superentity])
        props = all_properties(e)
        for name in sorted(props, key=lambda n: n.encode()):
            p = props[name]
            if getattr(p, "transient", False):
                continue
            data += property_hash(p)
        if e.modifier is not None:
            data += e.modifier.encode()
        constraints = sorted(s for s in (".".join(c) for c in e.uniqueness_constraints) if s)
        for s in constraints:
            data += s.encode()
        memo[e.name] = _h(data)
        return memo[e.name]

    return {e.name: entity_hash(e) for e in entities}


def checksum(hashes: Dict[str, bytes]) -> str:
    names = sorted(hashes, key=lambda n: n.encode())
    return base64.b64encode(_h(b"".join(hashes[n] for n in names))).decode()


def digest(hashes: Dict[str, bytes]) -> str:
    names = sorted(hashes, key=lambda n: n.encode())
    return base64.b64encode(hashlib.sha512(b"".join(n.encode() + hashes[n] for n in names)).digest()).decode()
