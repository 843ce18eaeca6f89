"""BattleScribe 40k weapons as the community data spells them (session 23)."""

from __future__ import annotations


def test_a_battlescribe_weapon_typed_ordinance_reads_as_ordnance() -> None:
    """Community 40k data often spells the type "Ordinance": read as Ordnance (its shots and Blast too), where before
    the weapon was dropped as of an unknown type."""
    from herohammer.battlescribe import weapon_data

    data, problem = weapon_data("Battle cannon", {"Range": "72", "Type": "Ordinance 1/Blast", "S": "8", "AP": "3"})
    assert problem == "" and data is not None
    assert (data["type"], data["shots"], data["blast"], data["strength"]) == ("ordnance", 1, 3, 8)
    assert weapon_data("Odd gun", {"Range": "24", "Type": "Ordonnance 1", "S": "4", "AP": "-"})[0] is None
