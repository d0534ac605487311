import Dispatch

/// A fake peer that is slow on purpose (it writes a reply in two pieces, or lingers
/// before it closes), to test that the code under test copes. This is the peer's pace,
/// not a test waiting for something: waits use `Poll`.
public enum SlowPeer {
    public static func pause(_ seconds: Double) {
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
    }
}
