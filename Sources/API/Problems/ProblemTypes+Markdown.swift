extension ProblemTypes {
    /// docs/errors.md, exactly: `ledger errors --markdown` prints it, and a test fails when
    /// the committed file differs, so the page and `/problems` say the same.
    public static func markdown() -> String {
        var out = """
            # Error codes

            <!-- Generated from Sources/API/Problems (ProblemTypes) by `ledger errors --markdown > docs/errors.md`: edit the registry, not this file. A test fails when they differ. -->

            Every error the ledger answers carries a stable `code`. This page says, for each code,
            what it means, whether anything was recorded, and what to do; branch on the code, and
            send people here. The running service serves the same text: a problem's `type` is
            `/problems/<code>`, a reference relative to the URL the request went to, so the API
            that answered also serves the page about its answer (`GET /problems` lists every code).
            The catalog surface (`/v1/iap/*`) answers the seed's `{"error", "code"}`, without
            `type`: the same codes, the same pages.

            A request that fails, and the page its `type` names:

            ```sh
            BASE=$(python3 -c 'import json;print(json.load(open(".ledger/demo.json"))["base_url"])')
            KEY=$(python3 -c 'import json;print(json.load(open(".ledger/demo.json"))["keys"]["acme"])')
            # Another payer than the key's: 404. (`|| true`: the docs check runs curl with --fail-with-body.)
            PROBLEM=$(curl -s -H "Authorization: Bearer $KEY" "$BASE/v1/payers/nosuch/balance" || true)
            echo "$PROBLEM" | python3 -m json.tool
            TYPE=$(echo "$PROBLEM" | python3 -c 'import json,sys;print(json.load(sys.stdin)["type"])')
            curl -s "$BASE$TYPE" | grep -o '<h1>.*</h1>'
            ```

            `type` starts with `/`, so it resolves against the API's origin: `$BASE$TYPE`, or open
            it in a browser. A 4xx changed nothing: a refused request appends nothing. A 503 asks
            for a retry after `Retry-After` seconds; of the 503s only `append_outcome_unknown` may
            have recorded the request, and sending the same request again records it at most once.

            Contents: \(groups.map { "[\($0.name)](#\($0.anchor))" }.joined(separator: " · ")).

            """
        for group in groups {
            out += "\n## \(group.name)\n\n\(group.summary)\n"
            for type in group.types {
                let status = type.statuses.isEmpty ? "Not an HTTP answer" : type.statuses.map { "HTTP \($0)" }.joined(separator: ", ")
                out += "\n### `\(type.code)`\n\n\(status) · \(type.title)\n\n\(type.meaning)\n\n**What to do:** \(type.action)\n"
            }
        }
        return out
    }
}
