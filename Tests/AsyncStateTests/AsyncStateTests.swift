import Testing
@testable import AsyncState
