import Foundation

/// `ledger admin …`: the operator acts (J4). They are not on the public HTTP surface; each
/// appends events that name the operator and the reason.
public enum AdminCommand: LedgerCommand {
    public static let name = "admin"
    public static let summary = "Operator acts: payers, projects, plans, keys, credits, holds, prices, month closes, corrections, organizations, apps, the IAP catalog and campaigns, webhook subscriptions, setting a poison event aside; and list/show of what exists."

    /// Every `ledger admin` command, in the order the usage lists them.
    static let actions: [any AdminAction.Type] = [
        PayerCreateAction.self, PayerListAction.self, PayerShowAction.self,
        ProjectCreateAction.self, ProjectFundAction.self, ProjectListAction.self, ProjectShowAction.self, PlanSetAction.self,
        KeyIssueAction.self, KeyRevokeAction.self, KeyListAction.self, CreditAction.self,
        HoldPlaceAction.self, HoldCaptureAction.self, HoldReleaseAction.self,
        PriceSetAction.self, MonthCloseAction.self, MonthLateUsageAction.self, CorrectAction.self,
        OrgCreateAction.self, OrgAdminAddAction.self, OrgAdminRemoveAction.self, OrgDelegateAction.self,
        OrgPlanAction.self, OrgEducationAction.self, OrgListAction.self, OrgShowAction.self,
        AppCreateAction.self, AppKeyIssueAction.self, AppKeyRevokeAction.self, AppDisableAction.self, AppEnableAction.self, AppStripeSetAction.self,
        AppListAction.self, AppShowAction.self,
        ProductSetAction.self, ProductStoreKitPriceAction.self, ProductRemoveAction.self, ProductListAction.self, CheckoutSetAction.self,
        CampaignMigrationAction.self, CampaignUpgradeAction.self, CampaignEndAction.self, CampaignStatsAction.self, CampaignListAction.self, UserShowAction.self,
        PurchaseRecordAction.self, EventSetAsideAction.self,
        OperatorAddAction.self, OperatorResetAction.self, OperatorDisableAction.self, OperatorSessionsEndAction.self, OperatorSessionsAction.self,
        WebhookAddAction.self, WebhookListAction.self, WebhookShowAction.self, WebhookDisableAction.self, WebhookRotateSecretAction.self,
        WebhookDeliveriesAction.self, WebhookRetryAction.self, WebhookReplayAction.self,
    ]

    public static var usage: String {
        """
        \(AdminDispatcher.usage(program: "ledger admin", actions: actions))
        Every command but list, show and stats appends events to the log (docs/events.md)
        with the operator and the reason in their metadata, and prints what it appended:
        type, stream, position, event id and data; with --json, one JSON object instead.
        list and show read the projections once they have reached the log's head. The operator
        recorded is the database login (DATABASE_URL's user, a member of ledger_operator);
        --operator or LEDGER_OPERATOR, when given, must name that login. Amounts are millicredits written canonically (1500, -25);
        catalog prices are decimals of the currency (4.99), kept as integer micros.
        Commands that check what exists first wait (up to 30 s) for the billing projection
        to reach the log's head, so `ledger project` must be running.

        Exit status: 0 done; 1 refused (the message says why; nothing was appended);
        2 usage error. Uses DATABASE_URL.
        """
    }

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        AdminDispatcher.runAsProcess(program: "ledger admin", actions: actions, arguments: arguments, environment: environment)
    }

    /// Runs `ledger admin ARGUMENTS` in-process. `services` is called only once the
    /// arguments have parsed, so a usage error never needs a database.
    public static func execute(_ arguments: [String], environment: [String: String],
                               services: () throws -> AdminServices) -> AdminOutcome {
        AdminDispatcher.execute(program: "ledger admin", actions: actions, arguments: arguments,
                                environment: environment, services: services)
    }
}
