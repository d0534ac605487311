import LedgerJSON
import StripeStandIn

extension StripeBenchEvents {
    /// `object` with the fields Stripe writes on an object of its kind (API version
    /// 2024-06-20) that the stand-in's scenarios leave out because the ledger reads none of
    /// them: a customer's details, payment method details, URLs, settings, mostly nulls.
    /// A field the object has already is kept as it is.
    static func withStripeFields(_ object: JSONValue) -> JSONValue {
        guard var fields = object.objectValue else { return object }
        let extra: [String: JSONValue]
        switch object["object"]?.stringValue {
        case "checkout.session": extra = checkoutFields(object)
        case "subscription": extra = subscriptionFields(object)
        case "invoice": extra = invoiceFields(object)
        case "payment_intent": extra = paymentIntentFields(object)
        case "charge": extra = chargeFields(object)
        default: extra = [:]
        }
        for (key, value) in extra where fields[key] == nil { fields[key] = value }
        return .object(fields)
    }

    /// The customer every object names, as Checkout collected it.
    static func customerDetails(_ user: String) -> JSONValue {
        ["address": address, "email": .string("\(user)@example.com"), "name": "Jenny Rosen", "phone": nil,
         "tax_exempt": "none", "tax_ids": []]
    }

    static let address: JSONValue = ["city": "San Francisco", "country": "US", "line1": "510 Townsend Street", "line2": nil,
                                     "postal_code": "94103", "state": "CA"]
    static let automaticTax: JSONValue = ["enabled": false, "liability": nil, "status": nil]

    static func checkoutFields(_ session: JSONValue) -> [String: JSONValue] {
        let user = session["client_reference_id"]?.stringValue ?? "customer"
        let created = session["created"]?.int64Value ?? 0
        return [
            "after_expiration": nil, "allow_promotion_codes": nil, "automatic_tax": automaticTax,
            "billing_address_collection": nil, "cancel_url": "https://app.example.com/checkout/cancel", "consent": nil,
            "consent_collection": nil, "currency_conversion": nil, "custom_fields": [],
            "custom_text": ["after_submit": nil, "shipping_address": nil, "submit": nil, "terms_of_service_acceptance": nil],
            "customer_creation": "always", "customer_details": customerDetails(user), "customer_email": nil,
            "expires_at": .integer(created + 86_400), "invoice": session["mode"] == "subscription" ? .string(StripeID.make("in_")) : nil,
            "invoice_creation": nil, "locale": nil, "payment_link": nil, "payment_method_collection": "always",
            "payment_method_configuration_details": ["id": .string(StripeID.make("pmc_")), "parent": nil],
            "payment_method_options": ["card": ["request_three_d_secure": "automatic"]], "payment_method_types": ["card", "link"],
            "phone_number_collection": ["enabled": false], "recovered_from": nil, "saved_payment_method_options": nil,
            "setup_intent": nil, "shipping_address_collection": nil, "shipping_cost": nil, "shipping_details": nil,
            "shipping_options": [], "submit_type": nil,
            "success_url": "https://app.example.com/checkout/success?session_id={CHECKOUT_SESSION_ID}",
            "total_details": ["amount_discount": 0, "amount_shipping": 0, "amount_tax": 0], "ui_mode": "hosted", "url": nil,
        ]
    }

    static func subscriptionFields(_ subscription: JSONValue) -> [String: JSONValue] {
        [
            "application": nil, "application_fee_percent": nil, "automatic_tax": ["enabled": false, "liability": nil],
            "billing_cycle_anchor": subscription["current_period_start"] ?? .null, "billing_cycle_anchor_config": nil,
            "billing_thresholds": nil, "cancellation_details": ["comment": nil, "feedback": nil, "reason": nil],
            "collection_method": "charge_automatically", "days_until_due": nil,
            "default_payment_method": .string(StripeID.make("pm_")), "default_source": nil, "default_tax_rates": [],
            "description": nil, "discount": nil, "discounts": [],
            "invoice_settings": ["account_tax_ids": nil, "issuer": ["type": "self"]],
            "next_pending_invoice_item_invoice": nil, "on_behalf_of": nil, "pause_collection": nil,
            "payment_settings": ["payment_method_options": nil, "payment_method_types": nil, "save_default_payment_method": "off"],
            "pending_invoice_item_interval": nil, "pending_setup_intent": nil, "pending_update": nil, "quantity": 1,
            "schedule": nil, "test_clock": nil, "transfer_data": nil,
            "trial_settings": ["end_behavior": ["missing_payment_method": "create_invoice"]],
        ]
    }

    static func invoiceFields(_ invoice: JSONValue) -> [String: JSONValue] {
        let paid = invoice["status"] == "paid"
        let created = invoice["created"] ?? .null
        let amount = invoice["amount_due"] ?? 0
        return [
            "account_country": "US", "account_name": "Ledger Example, Inc.", "account_tax_ids": nil, "amount_shipping": 0,
            "application": nil, "auto_advance": false, "automatic_tax": automaticTax, "collection_method": "charge_automatically",
            "custom_fields": nil, "customer_address": nil, "customer_email": "customer@example.com", "customer_name": "Jenny Rosen",
            "customer_phone": nil, "customer_shipping": nil, "customer_tax_exempt": "none", "customer_tax_ids": [],
            "default_payment_method": nil, "default_source": nil, "default_tax_rates": [], "description": nil, "discount": nil,
            "discounts": [], "due_date": nil, "effective_at": created, "ending_balance": 0, "footer": nil, "from_invoice": nil,
            "hosted_invoice_url": .string("https://invoice.stripe.com/i/acct_1PxLedgerExample/test_" + StripeID.make("", length: 88)),
            "invoice_pdf": .string("https://pay.stripe.com/invoice/acct_1PxLedgerExample/test_" + StripeID.make("", length: 88) + "/pdf?s=ap"),
            "issuer": ["type": "self"], "last_finalization_error": nil, "latest_revision": nil,
            "number": .string(StripeID.make("", length: 8).uppercased() + "-0001"), "on_behalf_of": nil, "paid_out_of_band": false,
            "payment_settings": ["default_mandate": nil, "payment_method_options": nil, "payment_method_types": nil],
            "post_payment_credit_notes_amount": 0, "pre_payment_credit_notes_amount": 0, "quote": nil, "receipt_number": nil,
            "rendering": nil, "starting_balance": 0, "statement_descriptor": nil,
            "status_transitions": ["finalized_at": created, "marked_uncollectible_at": nil, "paid_at": paid ? created : nil, "voided_at": nil],
            "subtotal": amount, "subtotal_excluding_tax": amount, "tax": nil, "test_clock": nil, "total": amount,
            "total_discount_amounts": [], "total_excluding_tax": amount, "total_tax_amounts": [], "transfer_data": nil,
            "webhooks_delivered_at": created,
        ]
    }

    static func paymentIntentFields(_ intent: JSONValue) -> [String: JSONValue] {
        let id = intent["id"]?.stringValue ?? "pi_"
        return [
            "amount_details": ["tip": [:]], "application": nil, "application_fee_amount": nil,
            "automatic_payment_methods": ["allow_redirects": "always", "enabled": true],
            "client_secret": .string(id + "_secret_" + StripeID.make("", length: 25)), "confirmation_method": "automatic",
            "description": nil, "last_payment_error": nil, "next_action": nil, "on_behalf_of": nil,
            "payment_method": .string(StripeID.make("pm_")), "payment_method_configuration_details": nil,
            "payment_method_options": ["card": ["installments": nil, "mandate_options": nil, "network": nil,
                                                "request_three_d_secure": "automatic"],
                                       "link": ["persistent_token": nil]],
            "payment_method_types": ["card", "link"], "processing": nil, "receipt_email": nil, "review": nil,
            "setup_future_usage": nil, "shipping": nil, "source": nil, "statement_descriptor": nil,
            "statement_descriptor_suffix": nil, "transfer_data": nil, "transfer_group": nil,
        ]
    }

    static func chargeFields(_ charge: JSONValue) -> [String: JSONValue] {
        let id = charge["id"]?.stringValue ?? "ch_"
        let amount = charge["amount"] ?? 0
        return [
            "application": nil, "application_fee": nil, "application_fee_amount": nil,
            "balance_transaction": .string(StripeID.make("txn_")),
            "billing_details": ["address": address, "email": "customer@example.com", "name": "Jenny Rosen", "phone": nil],
            "calculated_statement_descriptor": "LEDGER EXAMPLE", "description": nil, "destination": nil, "dispute": nil,
            "disputed": false, "failure_balance_transaction": nil, "failure_code": nil, "failure_message": nil, "fraud_details": [:],
            "on_behalf_of": nil,
            "outcome": ["network_status": "approved_by_network", "reason": nil, "risk_level": "normal", "risk_score": 32,
                        "seller_message": "Payment complete.", "type": "authorized"],
            "payment_method": .string(StripeID.make("pm_")),
            "payment_method_details": ["card": [
                "amount_authorized": amount, "brand": "visa",
                "checks": ["address_line1_check": "pass", "address_postal_code_check": "pass", "cvc_check": "pass"],
                "country": "US", "exp_month": 12, "exp_year": 2030, "extended_authorization": ["status": "disabled"],
                "fingerprint": .string(StripeID.make("", length: 16)), "funding": "credit",
                "incremental_authorization": ["status": "unavailable"], "installments": nil, "last4": "4242", "mandate": nil,
                "multicapture": ["status": "unavailable"], "network": "visa", "network_token": ["used": false],
                "overcapture": ["maximum_amount_capturable": amount, "status": "unavailable"], "three_d_secure": nil, "wallet": nil,
            ], "type": "card"],
            "radar_options": [:], "receipt_email": nil, "receipt_number": nil,
            "receipt_url": .string("https://pay.stripe.com/receipts/payment/" + StripeID.make("", length: 96)),
            "refunds": ["object": "list", "data": [], "has_more": false, "total_count": 0, "url": .string("/v1/charges/\(id)/refunds")],
            "review": nil, "shipping": nil, "source": nil, "source_transfer": nil, "statement_descriptor": nil,
            "statement_descriptor_suffix": nil, "transfer_data": nil, "transfer_group": nil,
        ]
    }
}
