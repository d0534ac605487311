import LedgerDomain
import LedgerJSON
import LedgerServices

extension OpenAPIDocument {
    static let amount: JSONValue = [
        "type": "string", "pattern": "^-?(0|[1-9][0-9]*)$",
        "description": "Millicredits as a canonical decimal string (B2): no +, no leading zeros, no -0, no exponent, no fraction.",
        "examples": ["1500", "-25", "0"],
    ]

    static let accountRef: JSONValue = [
        "type": "object", "required": ["kind", "id"],
        "properties": ["kind": ["type": "string", "enum": ["project", "payer", "self"]], "id": ["type": "string"]],
    ]

    static func object(_ properties: [String: JSONValue], required: [String]) -> JSONValue {
        ["type": "object", "required": .array(required.map(JSONValue.string)), "properties": .object(properties)]
    }

    static var billingSchemas: [String: JSONValue] {
        let posted = object(["posted": amount], required: ["posted"])
        let postedHeld = object(["posted": amount, "held": amount], required: ["posted", "held"])
        let units = object([
            "api_requests": ["type": "integer"], "stream_events": ["type": "integer"], "webhook_deliveries": ["type": "integer"],
            "counted": ["type": "integer", "description": "U4: the three together."],
            "free_limit": ["type": "integer", "minimum": 10000,
                           "description": "U4: 10,000 per pool and month; a project's read adds up its parts' (20,000 for a month split by a funding change)."],
            "free_used": ["type": "integer"],
            "billed": ["type": "integer"], "amount": amount,
        ], required: ["counted", "free_limit", "free_used", "billed", "amount"])
        let storage = object([
            "peak_bytes": ["type": "integer"], "allowance_bytes": ["type": "integer", "description": "The payer's plan allowance (U3)."],
            "billed_bytes": ["type": "integer"], "amount": amount,
        ], required: ["peak_bytes", "allowance_bytes", "billed_bytes", "amount"])
        let sources = object(["plan": posted, "purchase": posted, "grant": posted, "correction": posted],
                             required: ["plan", "purchase", "grant", "correction"])
        let consumption = object(["usage": postedHeld, "hold": postedHeld], required: ["usage", "hold"])
        // The states the usage read answers are `MonthStatus`'s, listed from it so that the
        // document cannot drift from the type the read encodes.
        let monthStatus: JSONValue = ["type": "string", "enum": .array(MonthStatus.allCases.map { .string($0.rawValue) })]
        let scope: JSONValue = ["type": "string", "enum": ["pool", "share"],
                                "description": "pool: the whole pool (payer, self-paying project); share: a funded project's own part (U6, U7)."]
        return [
            "AccountRef": accountRef,
            "PoolBalance": object([
                "payer": ["$ref": "#/components/schemas/AccountRef"], "scope": scope, "sources": sources, "consumption": consumption,
                "posted": amount, "held": amount, "available": amount, "reserve_visible": ["type": "boolean"],
            ], required: ["payer", "scope", "consumption", "posted", "held", "reserve_visible"]),
            "Balance": object([
                "account": ["$ref": "#/components/schemas/AccountRef"],
                "payer": ["$ref": "#/components/schemas/AccountRef"],
                "scope": scope,
                "currency": ["type": "string", "const": "millicredits"],
                "sources": sources, "consumption": consumption,
                "posted": amount, "held": amount, "available": amount,
                "reserve_visible": ["type": "boolean"],
                "other_pools": ["type": "array", "items": ["$ref": "#/components/schemas/PoolBalance"],
                                "description": "U6: every other pool the account has figures on (a project whose funding changed: its former pool, or its share of a former payer's); with the figures above, their posted amounts add up to the account's journal."],
                "rails_available": ["type": "boolean", "const": false],
                "missing_rails": ["type": "array", "items": ["type": "string", "enum": ["card", "tax", "withdrawal"]]],
                "payment_authority": ["type": "boolean", "const": false, "description": "B3: a snapshot, never an authorisation to spend."],
                "position": ["type": "integer", "description": "The log position this snapshot reflects."],
            ], required: ["account", "payer", "scope", "currency", "consumption", "posted", "held", "reserve_visible", "other_pools",
                          "rails_available", "missing_rails", "payment_authority", "position"]),
            "JournalEntry": object([
                "id": ["type": "string", "pattern": "^je_[0-9]+_[0-9]+$"],
                "kind": ["type": "string", "enum": ["credit", "usage_charge", "hold_capture", "correction"]],
                "source": ["type": ["string", "null"], "enum": ["plan", "purchase", "grant", nil]],
                "amount": amount, "project_id": ["type": ["string", "null"]], "pool": ["type": "string"],
                "month": ["type": ["string", "null"]], "hold_id": ["type": ["string", "null"]],
                "corrects": ["type": ["string", "null"], "description": "J3: the entry this correction corrects."],
                "corrected_by": ["type": "array", "items": ["type": "string"], "description": "J3: corrections of this entry."],
                "description": ["type": "string"], "posted_at": ["type": "string", "format": "date-time"],
                "position": ["type": "integer"],
            ], required: ["id", "kind", "amount", "pool", "corrected_by", "description", "posted_at", "position"]),
            "JournalPage": object([
                "account": ["$ref": "#/components/schemas/AccountRef"],
                "entries": ["type": "array", "items": ["$ref": "#/components/schemas/JournalEntry"]],
                "has_more": ["type": "boolean"],
                "next_cursor": ["type": ["string", "null"],
                                "description": "J1: the cursor after this page's last entry, even on the last page (on an empty page, the cursor sent), to come back later for what was posted since; null only when the account has no entry at all."],
                "position": ["type": "integer"],
            ], required: ["account", "entries", "has_more", "next_cursor", "position"]),
            "UsageProjectLine": object([
                "project_id": ["type": "string"], "units": units, "storage": storage,
                "bytes_served": ["type": "integer"], "bytes_received": ["type": "integer"], "amount": amount,
            ], required: ["project_id", "units", "storage", "bytes_served", "bytes_received", "amount"]),
            "UsagePart": object([
                "payer": ["$ref": "#/components/schemas/AccountRef"],
                "status": monthStatus, "final": ["type": "boolean"],
                "units": units, "storage": storage, "bytes_served": ["type": "integer"], "bytes_received": ["type": "integer"],
                "amount": amount,
            ], required: ["payer", "status", "final", "units", "storage", "bytes_served", "bytes_received", "amount"]),
            "Usage": object([
                "account": ["$ref": "#/components/schemas/AccountRef"],
                "payer": ["$ref": "#/components/schemas/AccountRef"],
                "month": ["type": "string"], "status": monthStatus,
                "final": ["type": "boolean"],
                "bytes_served": ["type": "integer", "description": "U2: reported, never billed."],
                "bytes_received": ["type": "integer", "description": "U2: reported, never billed."],
                "units": units, "storage": storage, "amount": amount,
                "projects": ["type": "array", "items": ["$ref": "#/components/schemas/UsageProjectLine"],
                             "description": "Payer reads only."],
                "parts": ["type": "array", "minItems": 1, "items": ["$ref": "#/components/schemas/UsagePart"],
                          "description": "Project reads only (U6): its usage on each pool it was billed to in the month, the pool that funds it now first; one unless its funding changed during the month. The figures above are their sums."],
                "position": ["type": "integer"],
            ], required: ["account", "payer", "month", "status", "final", "bytes_served", "bytes_received", "units",
                          "storage", "amount", "position"]),
            "UsageEvent": object([
                "id": ["type": "string", "minLength": 1, "maxLength": 128],
                "project_id": ["type": "string"],
                "meter": ["type": "string", "enum": ["api_requests", "stream_events", "webhook_deliveries", "storage_bytes",
                                                     "bytes_served", "bytes_received"]],
                "quantity": ["oneOf": [["type": "integer", "minimum": 0], ["type": "string", "pattern": "^(0|[1-9][0-9]*)$"]]],
                "occurred_at": ["type": "string", "format": "date-time"],
            ], required: ["id", "project_id", "meter", "quantity", "occurred_at"]),
            "UsageBatch": object([
                "events": ["type": "array", "minItems": 1, "maxItems": 1000, "items": ["$ref": "#/components/schemas/UsageEvent"]],
            ], required: ["events"]),
            "UsageAccepted": object([
                "accepted": ["type": "integer"], "duplicates": ["type": "integer"], "position": ["type": "integer"],
            ], required: ["accepted", "duplicates", "position"]),
        ]
    }
}
