import JSONRPC
import Testing

@Suite("JSONValue writing")
struct JSONValueWritingTests {
  @Test func objectMembersAreSortedByCodePoint() {
    let value: JSONValue = [
      "b": 1, "a": 2, "ab": 3, "B": 4, "é": 5, "z": 6, "": 7, "a\u{0}": 8, "😀": 9, "\u{FFFD}": 10,
    ]
    #expect(
      value.jsonText == #"{"":7,"B":4,"a":2,"a\u0000":8,"ab":3,"b":1,"z":6,"é":5,"\#u{FFFD}":10,"😀":9}"#)
  }

  @Test func theThreeOutputsAgree() {
    let value: JSONValue = ["rows": [["id": "r1", "top": 1.5], nil, true], "n": -0.0, "s": "a\u{2028}"]
    let text = #"{"n":-0,"rows":[{"id":"r1","top":1.5},null,true],"s":"a\u2028"}"#
    #expect(value.jsonText == text)
    #expect(value.encoded() == Array(text.utf8))
    var out = Array("prefix ".utf8)
    value.write(to: &out)
    #expect(out == Array(("prefix " + text).utf8))
  }
}
