// Tests that import AsyncStateTesting get the kit itself and the controls
// they drive effects with — Gate, TestClock, LockedValue, SplitMix64 —
// without more imports.
@_exported import AsyncState
@_exported import AsyncStateControls
