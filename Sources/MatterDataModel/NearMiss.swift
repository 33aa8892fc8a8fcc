/// The name a person most likely meant when they mistyped one of the data model's (`OnOf` for `OnOff`): the closest
/// by edit distance, ignoring case, when it is close enough to be a typo.
public enum NearMiss {
    /// The candidate closest to `typed`, when at most a third of its letters (at least one, at most three) differ.
    public static func closest(to typed: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(typed.lowercased())
        let allowed = min(3, max(1, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance <= allowed && distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// " (did you mean OnOff?)", or nothing.
    public static func suggestion(for typed: String, among candidates: some Sequence<String>) -> String {
        closest(to: typed, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Levenshtein distance: insertions, deletions and substitutions, one row at a time.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
