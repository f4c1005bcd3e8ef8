import CICUShim
import Testing

@testable import OutlineFont

/// Script runs as the browser itemizes text (``ScriptRuns``).
@Suite struct ScriptRunsTests {
  /// The script of each scalar of `text`.
  func scripts(_ text: String) -> [Int32] {
    var scripts: [Int32] = []
    var starts: [Int] = []
    Array(text.utf8).withUnsafeBufferPointer { ScriptRuns.resolve($0, scripts: &scripts, starts: &starts) }
    return scripts
  }

  let latin = ScriptRuns.latin
  let hiragana = ScriptRuns.hiragana
  let han = ScriptRuns.han

  @Test func commonCharactersJoinTheRunInProgressAcrossSpaces() {
    // である 'cabal': the space and the quote belong to the Japanese run.
    let s = scripts("である 'ca")
    #expect(s == [hiragana, hiragana, hiragana, hiragana, hiragana, latin, latin])
    // At the start, they take the first run's script; all Common stays Common.
    #expect(scripts("'ab") == [latin, latin, latin])
    #expect(scripts("1.0 -") == [0, 0, 0, 0, 0])
  }

  @Test func kanaIsOneRunAndHanAnother() {
    #expect(scripts("うフ") == [hiragana, hiragana])
    #expect(scripts("漢字かな") == [han, han, hiragana, hiragana])
  }

  @Test func extensionsEndARun() {
    // 、 shares no script with Latin: it starts a run, which the quote after it joins.
    let s = scripts("n\"、\"o")
    #expect(s[0] == latin && s[1] == latin)
    #expect(s[2] != latin && s[3] == s[2])
    #expect(s[4] == latin)
  }

  @Test func aClosingBracketTakesItsOpeningBracketsScript() {
    let s = scripts("中文 (KDE) 中")
    #expect(s[3] == han)
    #expect(s[4] == latin)
    #expect(s[7] == han)
  }

  @Test func runsAreEncodedInWordKeys() {
    var encoded: [UInt8] = []
    ScriptRuns.appendRun(0, hiragana, to: &encoded)
    ScriptRuns.appendRun(300, latin, to: &encoded)
    var runs: [(Int, Int32)] = []
    encoded.withUnsafeBufferPointer { ScriptRuns.forEachRun($0) { runs.append(($0, $1)) } }
    #expect(runs.map(\.0) == [0, 300] && runs.map(\.1) == [hiragana, latin])
  }
}
