import LedgerJSON

// The seed's JSON, field by field: nullable fields are written as null, and fields the
// seed says are present only in some cases (`trial`, the upgrade-only fields of `Offer`,
// `max_subscription_days` of `MigrationCampaign`, which is not nullable) are left out.

extension CatalogView {
    public var jsonValue: JSONValue {
        [
            "products": .array(products.map(\.jsonValue)),
            "checkout_config": checkout.jsonValue,
            "migration_campaign": migration?.jsonValue ?? .null,
            "offer": offer?.jsonValue ?? .null,
        ]
    }
}

extension Price {
    var jsonValue: JSONValue { ["amount_micros": .integer(amountMicros), "currency_code": .string(currencyCode)] }
}

extension CheckoutConfig {
    var jsonValue: JSONValue {
        let regions = resolvedJurisdictions
        return [
            "sheet_type": .string(sheetType.rawValue),
            "is_enabled": .bool(isEnabled),
            "jurisdictions": .object(Dictionary(uniqueKeysWithValues: Region.allCases.map { region in
                let j = regions[region]!
                return (region.rawValue, ["sheet_type": .string(j.sheetType.rawValue), "is_enabled": .bool(j.isEnabled)] as JSONValue)
            })),
            "apple_merchant_id": appleMerchantID.map(JSONValue.string) ?? .null,
        ]
    }
}

extension ProductView {
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(product.id),
            "display_name": .string(product.displayName),
            "product_description": .string(product.description),
            "type": .string(product.type.rawValue),
            "web_price": product.webPrice?.jsonValue ?? .null,
            "storekit_price": storeKitPrice?.jsonValue ?? .null,
            "subscription_group_id": product.subscriptionGroupID.map(JSONValue.integer) ?? .null,
            "free_trial_duration": product.freeTrialDuration.map(JSONValue.string) ?? .null,
            "is_trial_eligible": isTrialEligible.map(JSONValue.bool) ?? .null,
        ]
        if let trial {
            members["trial"] = [
                "mode": .string(trial.mode.rawValue),
                "duration": .string(trial.duration),
                "upfront_amount_cents": .integer(Int64(trial.upfrontAmountCents)),
                "hold_amount_cents": .integer(Int64(trial.holdAmountCents)),
                "validates_card": .bool(trial.validatesCard),
            ]
        }
        return .object(members)
    }
}

extension OfferDisplay {
    var jsonValue: JSONValue {
        [
            "offer_title": .string(offerTitle), "offer_message": .string(offerMessage), "offer_cta": .string(offerCTA),
            "accepted_title": .string(acceptedTitle), "accepted_message": .string(acceptedMessage),
            "accepted_cta": .string(acceptedCTA), "completed_title": .string(completedTitle),
            "completed_message": .string(completedMessage),
        ]
    }
}

extension MigrationView {
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "should_show": .bool(shouldShow),
            "product_id": .string(campaign.productID),
            "discount_percent": .integer(Int64(campaign.discountPercent)),
            "min_subscription_days": .integer(Int64(campaign.targeting.minSubscriptionDays)),
            "free_trial_days": .integer(Int64(campaign.targeting.freeTrialDays)),
            "title": .string(campaign.title),
            "message": .string(campaign.message),
            "variant_id": variantID.map(JSONValue.integer) ?? .null,
        ]
        if let max = campaign.targeting.maxSubscriptionDays { members["max_subscription_days"] = .integer(Int64(max)) }
        return .object(members)
    }
}

extension OfferView {
    var jsonValue: JSONValue {
        switch self {
        case .migration(let m):
            return .object(Self.members(flow: "migration", productID: m.campaign.productID, eligible: m.campaign.eligibleProductIDs,
                                savings: m.campaign.discountPercent, targeting: m.campaign.targeting, variantID: m.variantID))
        case .upgrade(let u):
            let sources = u.campaign.upgradePaths.filter { $0.toProductID == u.path.toProductID }.map(\.fromProductID)
            var members = Self.members(flow: "upgrade", productID: u.path.toProductID, eligible: sources,
                                       savings: u.savingsPercent, targeting: u.campaign.targeting, variantID: u.variantID)
            members["upgrade_type"] = .string(u.path.upgradeType.rawValue)
            members["from_product_id"] = .string(u.path.fromProductID)
            members["to_product_id"] = .string(u.path.toProductID)
            return .object(members)
        }
    }

    private static func members(flow: String, productID: String, eligible: [String], savings: Int,
                                targeting: CampaignTargeting, variantID: Int64?) -> [String: JSONValue] {
        [
            "flow_type": .string(flow),
            "product_id": .string(productID),
            "eligible_product_ids": .array(eligible.map(JSONValue.string)),
            "savings_percent": .integer(Int64(savings)),
            "display": targeting.display.jsonValue,
            "free_trial_days": .integer(Int64(targeting.freeTrialDays)),
            "min_subscription_days": .integer(Int64(targeting.minSubscriptionDays)),
            "max_subscription_days": targeting.maxSubscriptionDays.map { .integer(Int64($0)) } ?? .null,
            "rollout_percent": .integer(Int64(targeting.rolloutPercent)),
            "variant_id": variantID.map(JSONValue.integer) ?? .null,
            "per_product_prompts": targeting.perProductPrompts ?? .null,
            "checkout_presentation": targeting.checkoutPresentation.map { .string($0.rawValue) } ?? .null,
        ]
    }
}
