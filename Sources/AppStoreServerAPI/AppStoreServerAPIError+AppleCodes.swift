extension AppStoreServerAPIError.Code {
    /// The stable code of Apple's numeric `errorCode`: a name for those the ledger's
    /// endpoints can meet, `apple_<number>` for any other, so that a new one of Apple's is
    /// still told apart and never mistaken for a known one.
    public static func apple(_ number: Int64) -> Self {
        Self(appleNames[number] ?? "apple_\(number)")
    }

    /// Apple's documented error codes (App Store Server API, "Error codes"), by number.
    static let appleNames: [Int64: String] = [
        4_000_000: "general_bad_request",
        4_000_002: "invalid_app_identifier",
        4_000_005: "invalid_request_revision",
        4_000_006: "invalid_transaction_id",
        4_000_008: "invalid_original_transaction_id",
        4_000_009: "invalid_extend_by_days",
        4_000_010: "invalid_extend_reason_code",
        4_000_011: "invalid_request_identifier",
        4_000_012: "start_date_too_far_in_past",
        4_000_013: "start_date_after_end_date",
        4_000_014: "invalid_pagination_token",
        4_000_015: "invalid_start_date",
        4_000_016: "invalid_end_date",
        4_000_017: "pagination_token_expired",
        4_000_018: "invalid_notification_type",
        4_000_019: "multiple_filters_supplied",
        4_000_020: "invalid_test_notification_token",
        4_000_021: "invalid_sort",
        4_000_022: "invalid_product_type",
        4_000_023: "invalid_product_id",
        4_000_024: "invalid_subscription_group_identifier",
        4_000_026: "invalid_in_app_ownership_type",
        4_000_030: "invalid_revoked",
        4_000_031: "invalid_status",
        4_000_047: "transaction_not_consumable",
        4_030_004: "subscription_extension_ineligible",
        4_030_005: "subscription_max_extension",
        4_030_007: "family_shared_subscription_extension_ineligible",
        4_040_001: "account_not_found",
        4_040_002: "account_not_found_retryable",
        4_040_003: "app_not_found",
        4_040_004: "app_not_found_retryable",
        4_040_005: "original_transaction_id_not_found",
        4_040_006: "original_transaction_id_not_found_retryable",
        4_040_007: "server_notification_url_not_found",
        4_040_008: "test_notification_not_found",
        4_040_009: "status_request_not_found",
        4_040_010: "transaction_id_not_found",
        4_290_000: "rate_limit_exceeded",
        5_000_000: "general_internal",
        5_000_001: "general_internal_retryable",
    ]

    public static let generalBadRequest = apple(4_000_000)
    public static let invalidTransactionID = apple(4_000_006)
    public static let invalidPaginationToken = apple(4_000_014)
    public static let paginationTokenExpired = apple(4_000_017)
    public static let startDateTooFarInPast = apple(4_000_012)
    public static let originalTransactionIDNotFound = apple(4_040_005)
    public static let transactionIDNotFound = apple(4_040_010)
    public static let rateLimitExceeded = apple(4_290_000)
    public static let generalInternal = apple(5_000_000)
    public static let generalInternalRetryable = apple(5_000_001)
}
