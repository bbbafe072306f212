import AsyncState

/// Which action started each effect of a test store's store — to name an
/// effect left in flight, or one whose error nothing handled, in a failure.
///
/// A store numbers effects with tokens as it schedules them, right after the
/// reducer that returned them runs; so an effect's action is the last one
/// processed whose first token is at most the effect's. Only that first
/// token is noted per action, and per later part (a concatenation's next
/// part, a queued load's turn, which begin long after) the effect it belongs
/// to: a step pays an append, and the lookup is made only for a failure.
@MainActor
final class EffectOrigins<Action> {
    /// The first token each action's effects could get, in order, beside
    /// the actions: two arrays, so the check of the last token copies no
    /// action.
    private var firstTokens: [Int] = []
    private var actions: [Action] = []
    /// The effect each later part belongs to, by token.
    private var wholes: [Int: Int] = [:]

    /// How many entries the lists may hold before they are cut back: twice
    /// what the last cut kept, so a long test pays a cut now and then.
    private var cutAt = 64

    /// Notes `action`, processed before the store schedules its effects, the
    /// first of which gets `firstToken`. `liveTokens` are those of the
    /// effects running or about to launch, oldest first: only they are
    /// named again.
    func noteScheduling(by action: Action, firstToken: Int, liveTokens: () -> [Int]) {
        if firstTokens.last == firstToken {
            // The action before scheduled no effect: none is named by it.
            actions[actions.count - 1] = action
            return
        }
        if firstTokens.count >= cutAt {
            cut(keepingThoseOf: liveTokens())
            cutAt = max(64, 2 * firstTokens.count)
        }
        firstTokens.append(firstToken)
        actions.append(action)
    }

    /// Keeps the entries of the actions that started a live effect — a
    /// part's whole is live as long as the part, and older.
    private func cut(keepingThoseOf live: [Int]) {
        var kept: [Int] = []
        var entry = 0
        for token in live {
            while entry + 1 < firstTokens.count, firstTokens[entry + 1] <= token { entry += 1 }
            if firstTokens[entry] <= token, kept.last != entry { kept.append(entry) }
        }
        firstTokens = kept.map { firstTokens[$0] }
        actions = kept.map { actions[$0] }
    }

    /// Notes the whole of a later part that begins running, and forgets it
    /// when the part ends.
    func noteRunning(_ change: RunningEffectChange) {
        if change.isRunning {
            if let whole = change.partOf { wholes[change.token] = whole }
        } else if !wholes.isEmpty {
            wholes[change.token] = nil
        }
    }

    /// The action that started effect `token` — or, for a later part, that
    /// started the whole it belongs to, `partOf` when the store has not yet
    /// told of the part.
    func action(of token: Int, partOf: Int? = nil) -> Action? {
        var token = partOf ?? token
        while let whole = wholes[token] { token = whole }
        return firstTokens.lastIndex { $0 <= token }.map { actions[$0] }
    }

    /// Whether effect `token` is a later part of another.
    func isPart(_ token: Int) -> Bool { wholes[token] != nil }
}
