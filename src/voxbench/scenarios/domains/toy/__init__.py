"""toy: a three-tool shop domain for tests and for learning the scenario format.

Small enough to read in a minute, yet shaped like the real domains: an auth tool that
sets `db["session"]`, a read and two writes gated on it, error results for every bad
input. The scenarios live in `voxbench/scenarios/toy_data/` (`toy_dataset_dir()`).
"""

from __future__ import annotations

import re
from typing import Any

from voxbench.scenarios.domains import ToolRegistry
from voxbench.scenarios.domains._common import error, norm, session, success

TOOLS = ToolRegistry()

_ORDER_RE = re.compile(r"^ORD-\d{4}$")
Result = dict[str, Any]


def _order(db: dict[str, Any], order_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    oid = order_id.strip().upper()
    if not _ORDER_RE.match(oid):
        return None, error(
            "invalid_order_id", f"Invalid order_id '{order_id}'. Expected format like ORD-1234."
        )
    order = (db.get("orders") or {}).get(oid)
    if not isinstance(order, dict):
        return None, error("order_not_found", f"Order {oid} not found")
    return order, None


def _verified(db: dict[str, Any], order_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    order, err = _order(db, order_id)
    if order is None:
        return None, err
    if session(db).get("verified_order_id") != order["order_id"]:
        return None, error("authentication_required", "Verify the caller with find_order first.")
    return order, None


@TOOLS.tool
def find_order(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Look an order up by id and the buyer's email; this verifies the caller."""
    order, err = _order(db, params["order_id"])
    if order is None:
        return err or {}
    if norm(order.get("email")) != norm(params["email"]):
        return error("authentication_failed", "Order id and email do not match our records.")
    s = session(db)
    s["verified_order_id"] = order["order_id"]
    return success(order={k: v for k, v in order.items() if k != "email"})


@TOOLS.tool
def cancel_order(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Cancel an order that has not shipped; the refund goes back to the original payment."""
    order, err = _verified(db, params["order_id"])
    if order is None:
        return err or {}
    if order.get("status") != "placed":
        return error(
            "cannot_cancel", f"Order {order['order_id']} is {order.get('status')} and cannot be cancelled."
        )
    order["status"] = "cancelled"
    order["cancel_reason"] = params["reason"]
    refund_id = f"RF-{order['order_id'][4:]}"
    db.setdefault("refunds", {})[refund_id] = {
        "refund_id": refund_id,
        "order_id": order["order_id"],
        "amount": order.get("total"),
        "date": db.get("_current_date"),
    }
    return success(order_id=order["order_id"], refund_id=refund_id, amount=order.get("total"))


@TOOLS.tool
def update_shipping_address(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Change where an order that has not shipped is delivered."""
    order, err = _verified(db, params["order_id"])
    if order is None:
        return err or {}
    if order.get("status") != "placed":
        return error("already_shipped", f"Order {order['order_id']} has shipped; the address cannot change.")
    address = " ".join(params["address"].split())
    if len(address) < 8:
        return error("invalid_address", "Give a full street address with number, street and city.")
    order["shipping_address"] = address
    return success(order_id=order["order_id"], shipping_address=address)
