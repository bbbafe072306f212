// Tests that import AsyncStateTesting get the controls they drive effects
// with — Gate, TestClock, LockedValue, SplitMix64 — without a second import.
@_exported import AsyncStateControls
