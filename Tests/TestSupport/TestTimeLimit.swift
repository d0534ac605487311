import Testing

extension Trait where Self == TimeLimitTrait {
    /// Every suite's limit: a test that hangs fails, naming itself, instead of stalling the
    /// run until CI's own limit. Ten minutes, far beyond any test's wall time on the two
    /// shared cores (the longest property tests take a few minutes while everything runs).
    public static var bounded: Self { .timeLimit(.minutes(10)) }
}
