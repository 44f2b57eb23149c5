#!/usr/bin/env python3
"""Check coredata_hash.py against real stores: rebuild each entity from the store's Z_MODELCACHE (raw DEFLATE of an
NSKeyedArchiver plist) and compare the computed hashes with Z_METADATA's NSStoreModelVersionHashes (and checksum/digest
when present).

Usage: verify_hashes.py STORE.sqlite …
Pass private copies (with their -wal/-shm): the stores are opened with mode=ro, which can still create sidecar files
beside a store that has none.
"""
import plistlib
import sqlite3
import sys
import zlib
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import coredata_hash as ch  # noqa: E402


def unarchive(blob):
    p = plistlib.loads(zlib.decompress(blob, -15))
    objs = p["$objects"]

    def r(v):
        if isinstance(v, plistlib.UID):
            return None if v.data == 0 else objs[v.data]  # UID 0 is "$null"
        return v

    def cls(o):
        return r(o["$class"])["$classname"] if isinstance(o, dict) and "$class" in o else None

    def dict_items(d):
        d = r(d)
        return [(r(k), r(v)) for k, v in zip(d["NS.keys"], d["NS.objects"])]

    return objs, r, cls, dict_items, r(p["$top"]["root"])


def flags(o):
    P = o.get("_P", 0)
    if P:
        return dict(optional=bool(P & 2), read_only=bool(P & 4), transient=bool(P & 8), ordered=bool(P & 0x400),
                    has_modifier=not (P & 0x80))
    return dict(optional=bool(o.get("NSIsOptional")), read_only=bool(o.get("NSIsReadOnly")),
                transient=bool(o.get("NSIsTransient")), ordered=bool(o.get("NSIsOrdered")), has_modifier=True)


def expression_format(r, x):
    """predicateFormat of the few NSExpression shapes seen in derived attributes (function on key paths)."""
    e = r(x)
    t = e.get("NSExpressionType")
    if t == 10:  # key path string
        return r(e["NSKeyPath"])
    if t == 3:  # key path: valueForKey: on the evaluated object
        args = [expression_format(r, a) for a in r(e["NSArguments"])["NS.objects"]]
        return ".".join(args)
    if t == 4:  # function, e.g. count:(pages)
        args = [expression_format(r, a) for a in r(e["NSArguments"])["NS.objects"]]
        return f"{r(e['NSSelectorName'])}({', '.join(args)})"
    raise NotImplementedError(f"expression type {t}")


def model_from_cache(blob):
    objs, r, cls, dict_items, root = unarchive(blob)
    ents_container = r(root["NSEntities"])
    if cls(ents_container) == "NSKnownKeysDictionary1":
        entity_objs = [r(x) for x in r(ents_container["values"])["NS.objects"]]
    else:
        entity_objs = [v for _, v in dict_items(ents_container)]
    entities = []
    for eo in entity_objs:
        name = r(eo["NSEntityName"])
        sup = r(eo.get("NSSuperentity"))
        sup_name = r(sup["NSEntityName"]) if isinstance(sup, dict) else None
        mod = r(eo.get("NSVersionHashModifier"))
        mod = mod if isinstance(mod, str) else None
        props = []
        for pname, po in dict_items(eo["NSProperties"]):
            c = cls(po)
            f = flags(po)
            pm = r(po.get("NSVersionHashModifier")) if f["has_modifier"] else None
            pm = pm if isinstance(pm, str) else None
            if c in ("NSAttributeDescription", "NSDerivedAttributeDescription"):
                fl = po.get("NSFlagsKey", 0) or 0
                deriv = None
                if c == "NSDerivedAttributeDescription":
                    deriv = expression_format(r, po.get("NSDerivationExpression"))
                    fp = r(po.get("NSFilteringPredicate"))
                    if fp is not None:
                        raise NotImplementedError("filtering predicate")
                props.append(ch.Attribute(pname, po.get("NSAttributeType", 0), optional=f["optional"],
                                          transient=f["transient"], read_only=f["read_only"], modifier=pm,
                                          external_storage=bool(fl & 4), preserves_in_history=bool(fl & 0x10),
                                          derivation=deriv))
            elif c == "NSRelationshipDescription":
                dest = r(po.get("NSDestinationEntity"))
                dest_name = r(dest["NSEntityName"]) if isinstance(dest, dict) else r(po.get("_NSDestinationEntityName"))
                inv = r(po.get("_NSInverseRelationshipName"))
                inv = inv if isinstance(inv, str) else None
                props.append(ch.Relationship(pname, dest_name, inv, po.get("NSMaxCount", 0), po.get("NSMinCount", 0),
                                             optional=f["optional"], ordered=f["ordered"], transient=f["transient"],
                                             read_only=f["read_only"], modifier=pm))
            else:
                props.append(None)  # fetched property or unknown: skipped
        uniques = []
        tuples = r(eo.get("NSUniqueTuples"))
        if isinstance(tuples, dict):
            for t in tuples["NS.objects"]:
                comps = []
                for c in r(t)["NS.objects"]:
                    c = r(c)
                    comps.append(c if isinstance(c, str) else r(c.get("NSPropertyName")))
                uniques.append(comps)
        entities.append(ch.Entity(name, [p for p in props if p is not None], sup_name, bool(eo.get("NSIsAbstract")),
                                  mod, uniques))
    return entities


def main(paths):
    total = ok = 0
    for path in paths:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            blob = con.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchone()
        except sqlite3.OperationalError:
            blob = None
        meta = plistlib.loads(con.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0])
        if not blob or not blob[0]:
            print(f"{Path(path).name}: no model cache")
            continue
        hashes = ch.entity_hashes(model_from_cache(blob[0]))
        stored = meta["NSStoreModelVersionHashes"]
        for n in sorted(stored):
            total += 1
            good = hashes.get(n) == stored[n]
            ok += good
            if not good:
                print(f"{Path(path).name}: {n}: MISMATCH")
        extra = ""
        if "NSStoreModelVersionChecksumKey" in meta:
            extra += " checksum " + ("ok" if ch.checksum(hashes) == meta["NSStoreModelVersionChecksumKey"] else "BAD")
        if "NSStoreModelVersionHashesDigest" in meta:
            extra += " digest " + ("ok" if ch.digest(hashes) == meta["NSStoreModelVersionHashesDigest"] else "BAD")
        print(f"{Path(path).name}: {sum(hashes.get(n) == stored[n] for n in stored)}/{len(stored)}{extra}")
    print(f"{ok}/{total} entity hashes reproduced")
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
