/** The devnet shielded-note token's source text (see shielded-note.ts). */

/** The empty depth-20 MiMC tree root of the real contract. */
export const ZERO_ROOT = '0x2fdfc505f5f2654af1528f65398e82c2c38814001634e8ea2965f51b038551f1';

export const SHIELDED_NOTE_SOURCE = `FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617
FIELD_ZERO_HEX = "0x" + "00" * 32
ZERO_ROOT = "${ZERO_ROOT}"
MAX_INPUT_NULLIFIERS = 4
MAX_OUTPUT_COMMITMENTS = 4
MAX_OUTPUT_PAYLOAD_BYTES = 4096
MAX_ROOT_HISTORY_WINDOW = 64
LIST_BLOB_DELIMITER = "|"

operator = Variable()
total_supply = Variable()
public_supply = Variable()
shielded_supply = Variable()
root_history_window = Variable()
current_root = Variable()
recent_roots = Variable()
note_count = Variable()

balances = Hash(default_value=0)
approvals = Hash(default_value=0)
spent_nullifiers = Hash(default_value=False)
note_exists = Hash(default_value=False)
metadata = Hash()

PublicMint = LogEvent(event="PublicMint", params={"to": {"type": str, "idx": True}, "amount": {"type": int}})
PublicTransfer = LogEvent(event="PublicTransfer", params={"sender": {"type": str, "idx": True}, "to": {"type": str, "idx": True}, "amount": {"type": int}})
ShieldedDeposit = LogEvent(event="ShieldedDeposit", params={
    "account": {"type": str, "idx": True}, "amount": {"type": int},
    "old_root": {"type": str, "idx": True}, "new_root": {"type": str, "idx": True}, "output_count": {"type": int},
})
ShieldedTransfer = LogEvent(event="ShieldedTransfer", params={
    "account": {"type": str, "idx": True}, "old_root": {"type": str, "idx": True}, "new_root": {"type": str, "idx": True},
    "nullifier_count": {"type": int}, "output_count": {"type": int},
})
ShieldedWithdraw = LogEvent(event="ShieldedWithdraw", params={
    "account": {"type": str, "idx": True}, "to": {"type": str, "idx": True}, "amount": {"type": int},
    "old_root": {"type": str}, "new_root": {"type": str, "idx": True}, "nullifier_count": {"type": int}, "output_count": {"type": int},
})
ShieldedOutputsCommitted = LogEvent(event="ShieldedOutputsCommitted", params={
    "new_root": {"type": str, "idx": True},
    "action": {"type": str},
    "note_index_start": {"type": int},
    "output_count": {"type": int},
    "commitments_blob": {"type": str},
    "payload_hashes_blob": {"type": str},
})


@construct
def seed(token_name: str = "Shielded Note Token", token_symbol: str = "SNOTE", operator_address: str = None, root_window_size: int = 32):
    if operator_address is None or operator_address == "":
        operator_address = ctx.caller
    assert 1 <= root_window_size <= MAX_ROOT_HISTORY_WINDOW, "root_window_size out of range!"
    operator.set(operator_address)
    total_supply.set(0)
    public_supply.set(0)
    shielded_supply.set(0)
    root_history_window.set(root_window_size)
    current_root.set(ZERO_ROOT)
    recent_roots.set([ZERO_ROOT])
    note_count.set(0)
    metadata["token_name"] = token_name
    metadata["token_symbol"] = token_symbol
    metadata["precision"] = 0


def require_amount(amount: int):
    assert isinstance(amount, int), "Amount must be an integer!"
    assert amount > 0, "Amount must be positive!"
    assert amount <= 2**64 - 1, "Amount exceeds shielded note limit!"


def require_hex_blob(name: str, value: str):
    assert isinstance(value, str), name + " must be a string!"
    assert value.startswith("0x"), name + " must be 0x-prefixed!"
    assert len(value) > 2 and len(value) % 2 == 0, name + " must contain whole bytes!"
    int(value[2:], 16)


def require_field_hex32(name: str, value: str):
    require_hex_blob(name, value)
    assert len(value) == 66, name + " must be 32 bytes!"
    assert int(value[2:], 16) < FIELD_MODULUS, name + " must be a canonical BN254 field element!"


def require_commitments(commitments: list):
    assert isinstance(commitments, list), "output_commitments must be a list!"
    assert 1 <= len(commitments) <= MAX_OUTPUT_COMMITMENTS, "output_commitments has invalid length!"
    for commitment in commitments:
        require_field_hex32("output commitment", commitment)
        assert commitment != FIELD_ZERO_HEX, "Output commitment must be non-zero!"


def require_nullifiers(nullifiers: list):
    assert isinstance(nullifiers, list), "input_nullifiers must be a list!"
    assert 1 <= len(nullifiers) <= MAX_INPUT_NULLIFIERS, "input_nullifiers has invalid length!"
    for nullifier in nullifiers:
        require_field_hex32("input nullifier", nullifier)
        assert nullifier != FIELD_ZERO_HEX, "Input nullifier must be non-zero!"


def require_output_payloads(output_payloads: list, expected_count: int):
    if output_payloads is None:
        return [""] * expected_count
    assert isinstance(output_payloads, list), "output_payloads must be a list!"
    assert len(output_payloads) == expected_count, "output_payloads length must match output commitments!"
    normalized = []
    for payload in output_payloads:
        if payload is None or payload == "":
            normalized.append("")
            continue
        require_hex_blob("output payload", payload)
        assert (len(payload) - 2) // 2 <= MAX_OUTPUT_PAYLOAD_BYTES, "output payload exceeds size limit!"
        normalized.append(payload)
    return normalized


def output_payload_hash(payload: str):
    # sha3-256 of the payload bytes, reduced into the BN254 scalar field; "" hashes to zero.
    return zk.shielded_output_payload_hash(payload)


def require_accepted_root(root: str):
    require_field_hex32("old_root", root)
    assert root in recent_roots.get(), "old_root is not accepted!"


def devnet_next_root(previous: str, commitments: list):
    # Devnet stand-in for the MiMC tree root: sha3-256 over the previous root and the new leaves,
    # reduced into the BN254 scalar field.
    digest = hashlib.sha3_text("xian-devnet-note-root:" + previous + ":" + "|".join(commitments))
    root = hex(int(digest, 16) % FIELD_MODULUS)[2:]
    return "0x" + "0" * (64 - len(root)) + root


def append_outputs(commitments: list, payload_hashes: list, action: str):
    start_index = note_count.get()
    for commitment in commitments:
        assert note_exists[commitment] is not True, "Commitment already exists!"
        note_exists[commitment] = True
    new_root = devnet_next_root(current_root.get(), commitments)
    note_count.set(start_index + len(commitments))
    roots = recent_roots.get() + [new_root]
    recent_roots.set(roots[-root_history_window.get():])
    current_root.set(new_root)
    ShieldedOutputsCommitted({
        "new_root": new_root,
        "action": action,
        "note_index_start": start_index,
        "output_count": len(commitments),
        "commitments_blob": "|".join(commitments),
        "payload_hashes_blob": "|".join(payload_hashes),
    })
    return new_root


def spend(nullifiers: list):
    for nullifier in nullifiers:
        assert spent_nullifiers[nullifier] is not True, "Nullifier already spent!"
        spent_nullifiers[nullifier] = True


@export
def get_metadata():
    return {"token_name": metadata["token_name"], "token_symbol": metadata["token_symbol"], "precision": metadata["precision"]}


@export
def current_shielded_root():
    return current_root.get()


@export
def get_note_count():
    return note_count.get()


@export
def balance_of(address: str):
    return balances[address]


@export
def approve(amount: int, to: str):
    assert isinstance(amount, int) and amount >= 0, "Approval amount must be a non-negative integer!"
    approvals[ctx.caller, to] = amount
    return amount


@export
def transfer(amount: int, to: str):
    require_amount(amount)
    assert balances[ctx.caller] >= amount, "Not enough balance!"
    balances[ctx.caller] -= amount
    balances[to] += amount
    PublicTransfer({"sender": ctx.caller, "to": to, "amount": amount})
    return amount


@export
def transfer_from(amount: int, to: str, main_account: str):
    require_amount(amount)
    assert approvals[main_account, ctx.caller] >= amount, "Not enough approved balance!"
    assert balances[main_account] >= amount, "Not enough balance!"
    approvals[main_account, ctx.caller] -= amount
    balances[main_account] -= amount
    balances[to] += amount
    PublicTransfer({"sender": main_account, "to": to, "amount": amount})
    return amount


@export
def mint_public(amount: int, to: str):
    assert ctx.caller == operator.get(), "Only operator!"
    require_amount(amount)
    balances[to] += amount
    total_supply.set(total_supply.get() + amount)
    public_supply.set(public_supply.get() + amount)
    PublicMint({"to": to, "amount": amount})
    return amount


@export
def deposit_shielded(amount: int, old_root: str, output_commitments: list, proof_hex: str, output_payloads: list = None):
    require_amount(amount)
    require_accepted_root(old_root)
    require_commitments(output_commitments)
    output_payloads = require_output_payloads(output_payloads, len(output_commitments))
    payload_hashes = [output_payload_hash(p) for p in output_payloads]
    require_hex_blob("proof_hex", proof_hex)
    assert balances[ctx.caller] >= amount, "Not enough public balance!"
    balances[ctx.caller] -= amount
    public_supply.set(public_supply.get() - amount)
    shielded_supply.set(shielded_supply.get() + amount)
    new_root = append_outputs(output_commitments, payload_hashes, "deposit")
    ShieldedDeposit({"account": ctx.caller, "amount": amount, "old_root": old_root, "new_root": new_root, "output_count": len(output_commitments)})
    return new_root


@export
def transfer_shielded(old_root: str, input_nullifiers: list, output_commitments: list, proof_hex: str, output_payloads: list = None):
    require_accepted_root(old_root)
    require_nullifiers(input_nullifiers)
    require_commitments(output_commitments)
    output_payloads = require_output_payloads(output_payloads, len(output_commitments))
    payload_hashes = [output_payload_hash(p) for p in output_payloads]
    require_hex_blob("proof_hex", proof_hex)
    spend(input_nullifiers)
    new_root = append_outputs(output_commitments, payload_hashes, "transfer")
    ShieldedTransfer({"account": ctx.caller, "old_root": old_root, "new_root": new_root, "nullifier_count": len(input_nullifiers), "output_count": len(output_commitments)})
    return new_root


@export
def withdraw_shielded(amount: int, to: str, old_root: str, input_nullifiers: list, output_commitments: list, proof_hex: str, output_payloads: list = None):
    require_amount(amount)
    require_accepted_root(old_root)
    require_nullifiers(input_nullifiers)
    assert isinstance(output_commitments, list) and len(output_commitments) <= MAX_OUTPUT_COMMITMENTS, "output_commitments has invalid length!"
    output_payloads = require_output_payloads(output_payloads, len(output_commitments))
    payload_hashes = [output_payload_hash(p) for p in output_payloads]
    require_hex_blob("proof_hex", proof_hex)
    assert shielded_supply.get() >= amount, "Not enough shielded supply!"
    spend(input_nullifiers)
    new_root = current_root.get()
    if len(output_commitments) > 0:
        new_root = append_outputs(output_commitments, payload_hashes, "withdraw")
    shielded_supply.set(shielded_supply.get() - amount)
    public_supply.set(public_supply.get() + amount)
    balances[to] += amount
    ShieldedWithdraw({"account": ctx.caller, "to": to, "amount": amount, "old_root": old_root, "new_root": new_root, "nullifier_count": len(input_nullifiers), "output_count": len(output_commitments)})
    return new_root
`;
