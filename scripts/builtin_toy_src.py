"""Source of the `toy` domain's two scenarios (`voxbench/scenarios/toy_data/`)."""

from __future__ import annotations

from typing import Any

from _src_common import a, call, goal, names, u

DOMAIN = "toy"
PERSONA = "You are polite and brief. You answer what you are asked in a few words."
VERIFY = "Give your order number and email when the agent asks."


def _db() -> dict[str, Any]:
    return {
        "_current_date": "",
        "orders": {
            "ORD-4821": {
                "order_id": "ORD-4821",
                "email": "<FIRST_NAME_ROMANIZED>@example.org",
                "items": ["blue kettle"],
                "total": 39.0,
                "status": "placed",
                "shipping_address": "12 Mill Lane, Bristol",
            },
            "ORD-4822": {
                "order_id": "ORD-4822",
                "email": "someone.else@example.org",
                "items": ["desk lamp"],
                "total": 24.5,
                "status": "shipped",
                "shipping_address": "4 High Street, Leeds",
            },
        },
        "refunds": {},
    }


SCENARIOS: list[dict[str, Any]] = [
    {
        "id": "ty.1",
        "current_date_time": "2026-04-01 09:00 UTC",
        "db": _db(),
        "user_goal": goal(
            "You ordered a blue kettle by mistake and want the order cancelled.",
            ["Order ORD-4821 is cancelled."],
            {
                "order_id": "ORD-4821",
                "email": "<FIRST_NAME_ROMANIZED>@example.org",
                "reason": "ordered by mistake",
            },
            "The agent confirms the cancellation. Thank them and end the call.",
            [VERIFY],
        ),
        "names": names("Ana", "Silva", "555-0100"),
        "gender": "woman",
        "starting": "Hi, I'd like to cancel an order.",
        "trace": [
            u("Hi, I'd like to cancel an order."),
            a("Sure, what's the order number and your email?"),
            u("O R D 4 8 2 1, <FIRST_NAME_ROMANIZED> at example dot org."),
            call("find_order", order_id="ORD-4821", email="<FIRST_NAME_ROMANIZED>@example.org"),
            a("Found it, one blue kettle. Cancel it?"),
            u("Yes, I ordered it by mistake."),
            call("cancel_order", order_id="ORD-4821", reason="ordered_by_mistake"),
            a("Cancelled; thirty-nine pounds goes back to your card. Anything else?"),
            u("No, thanks. Bye."),
        ],
    },
    {
        "id": "ty.2",
        "current_date_time": "2026-04-02 15:30 UTC",
        "db": _db(),
        "user_goal": goal(
            "You moved house and want your kettle order delivered to 7 Orchard Road, Bath instead.",
            ["Order ORD-4821 ships to 7 Orchard Road, Bath."],
            {
                "order_id": "ORD-4821",
                "email": "<FIRST_NAME_ROMANIZED>@example.org",
                "new_address": "7 Orchard Road, Bath",
            },
            "The agent confirms the new address. Thank them and end the call.",
            [VERIFY],
        ),
        "names": names("Ben", "Okoro", "555-0101"),
        "gender": "man",
        "starting": "Hello, can I change the delivery address of my order?",
        "trace": [
            u("Hello, can I change the delivery address of my order?"),
            a("Of course. Order number and email, please?"),
            u("O R D 4 8 2 1, and <FIRST_NAME_ROMANIZED> at example dot org."),
            call("find_order", order_id="ORD-4821", email="<FIRST_NAME_ROMANIZED>@example.org"),
            a("Got it. What's the new address?"),
            u("7 Orchard Road, Bath."),
            call("update_shipping_address", order_id="ORD-4821", address="7 Orchard Road, Bath"),
            a("Updated: it will go to 7 Orchard Road, Bath. Anything else?"),
            u("No, that's all. Thank you."),
        ],
    },
]
