/**
 * The genesis system contracts the chain itself reads (contracts.md §11): `chi_cost`
 * (`chi_cost.S:value`, chi per native token), `rewards` (`rewards.S:value`, the four split
 * ratios), `foundation` (`foundation.owner`) and `submission` (contract deployment). Governance
 * changes go through `validators`, which the devnet does not run; the devnet operator edits these
 * values with genesis options or governed state patches instead.
 */

export const CHI_COST_SOURCE = `S = Hash()
CONTROL_CONTRACT = "validators"


def require_control_contract():
    assert ctx.caller == CONTROL_CONTRACT, "Only validators can change chi cost."

@construct
def seed(initial_rate: int=100):
    S['value'] = initial_rate

@export
def current_value():
    return S['value']

@export
def set_value(new_value: int):
    require_control_contract()
    assert new_value > 0, 'New value must be greater than 0'
    S['value'] = new_value
`;

export const REWARDS_SOURCE = `S = Hash()
CONTROL_CONTRACT = "validators"


def require_control_contract():
    assert ctx.caller == CONTROL_CONTRACT, "Only validators can change rewards."

@construct
def seed(initial_split: list = [0.30, 0.01, 0.01, 0.68]):
    S['value'] = initial_split

@export
def current_value():
    return S['value']

@export
def set_value(new_value: list):
    require_control_contract()
    assert len(new_value) == 4, 'New value must be a list of 4 elements'
    assert sum(new_value) == 1, 'Sum of new value must be 1'
    for item in new_value:
        assert item > 0, 'There must be no 0 values in the list'
    S['value'] = new_value
`;

export const FOUNDATION_SOURCE = `owner = Variable()


@construct
def seed(vk: str):
    owner.set(vk)


@export
def change_owner(new_owner: str):
    assert ctx.caller == owner.get(), "Only the foundation owner can change the owner."
    owner.set(new_owner)
`;

/**
 * The chain's `submission` contract in its authored, source-only form (xian-contracting
 * `submission_source.s.py`): name rules, then the host's native deployment `Contract.deploy`
 * (compile on the node, constructor, metadata keys) and the `ContractDeployed` event.
 */
export const SUBMISSION_SOURCE = `ContractDeployedEvent = LogEvent(
    "ContractDeployed",
    {
        "name": {"type": str, "idx": True},
        "owner": {"type": str},
        "developer": {"type": str, "idx": True},
    },
)

ContractOwnerChangedEvent = LogEvent(
    "ContractOwnerChanged",
    {
        "contract": {"type": str, "idx": True},
        "previous_owner": {"type": str},
        "new_owner": {"type": str, "idx": True},
    },
)


def assert_safe_contract_name(name: str):
    assert isinstance(name, str) and name != "", "Contract name must be a non-empty string!"
    if ctx.caller != "sys":
        assert name.startswith("con_"), "Contract must start with con_!"
    assert len(name) <= 64, "Contract name length exceeds 64 characters!"
    assert name[0].isascii() and name[0].isalpha() and name[0].islower(), "Contract name must start with a lowercase ASCII letter!"
    for char in name:
        assert char.isascii() and (char.islower() or char.isdigit() or char == "_"), "Contract name must contain only lowercase ASCII letters, digits, and underscores!"


@export
def submit_contract(name: str, code: str, owner: str = None, constructor_args: dict = None):
    assert_safe_contract_name(name)
    assert owner is None or (isinstance(owner, str) and owner != ""), "Owner must be None or a non-empty string!"
    if constructor_args is None:
        constructor_args = {}
    assert isinstance(code, str) and code != "", "Contract source code must be a non-empty string!"
    Contract.deploy(
        name=name,
        code=code,
        owner=owner,
        constructor_args=constructor_args,
        developer=ctx.caller,
        deployer=ctx.caller,
        initiator=ctx.signer,
    )
    ContractDeployedEvent({"name": name, "owner": owner or "", "developer": ctx.caller})


@export
def change_developer(contract: str, new_developer: str):
    assert isinstance(contract, str) and contract != "", "Contract must be a non-empty string!"
    assert isinstance(new_developer, str) and new_developer != "", "New developer must be a non-empty string!"
    current_developer = Contract.get_info(contract)["developer"]
    assert ctx.caller == current_developer, "Sender is not current developer!"
    Contract.set_developer(contract, new_developer)


@export
def change_owner(contract: str, new_owner: str):
    assert isinstance(contract, str) and contract != "", "Contract must be a non-empty string!"
    assert isinstance(new_owner, str) and new_owner != "", "New owner must be a non-empty string!"
    current_owner = Contract.get_info(contract)["owner"]
    assert current_owner not in (None, ""), "Contract has no runtime owner!"
    assert ctx.caller == current_owner, "Sender is not current owner!"
    Contract.set_owner(contract, new_owner)
    ContractOwnerChangedEvent({"contract": contract, "previous_owner": current_owner, "new_owner": new_owner})
`;
