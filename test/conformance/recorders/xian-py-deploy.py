"""Records test/conformance/fixtures/xian-py-deploy.json: a contract deployment and a call to it,
signed and serialized as xian-py does (create_tx + json.dumps for broadcast_tx_*), with PyNaCl —
not by chainhost code. Run with the system python that has python3-nacl: /usr/bin/python3 <this>."""
import hashlib, json
from nacl.signing import SigningKey

SEED = "7156460fdc9c8f5201ca70b53782dafba4dbd5f9b88984ba52fc9c788dfc678b"  # devnet dev account 0
KEY = SigningKey(bytes.fromhex(SEED))
SENDER = KEY.verify_key.encode().hex()
SOURCE = 'notes = Hash()\n\n\n@export\ndef put(key: str, value: str):\n    notes[key] = value\n'

def canonical(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

def form(name, contract, function, kwargs, nonce, chi):
    payload = {"chain_id": "chain-local-1", "chi_supplied": chi, "contract": contract, "function": function,
               "kwargs": kwargs, "nonce": nonce, "sender": SENDER}
    signature = KEY.sign(canonical(payload).encode()).signature.hex()
    tx = json.loads(canonical({"payload": payload, "metadata": {"signature": signature}}))
    wire = json.dumps(tx)
    raw_hex = wire.encode().hex()
    return {"name": name, "wire_json": wire, "raw_hex": raw_hex, "hash": hashlib.sha256(raw_hex.encode()).hexdigest().upper()}

print(json.dumps({
    "about": "xian-py's deploy journey in its wire form: submission.submit_contract(name, code, constructor_args omitted) then a call to the new contract, signed with PyNaCl and serialized with json.dumps as xian-py broadcasts (recorded by test/conformance/recorders/xian-py-deploy.py).",
    "sender": SENDER,
    "source": SOURCE,
    "forms": [
        form("submit_contract", "submission", "submit_contract", {"name": "con_pynotes", "code": SOURCE}, 0, 100000),
        form("call", "con_pynotes", "put", {"key": "a", "value": "b"}, 1, 1000),
    ],
}, indent=1))
