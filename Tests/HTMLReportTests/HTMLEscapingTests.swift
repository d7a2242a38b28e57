import HTMLReport
import Testing

@Suite struct HTMLEscapingTests {
    @Test func markupCharactersBecomeReferences() {
        #expect(
            HTMLEscaping.text(#"<script>alert("x") & 'y'</script>"#)
                == "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;")
    }

    @Test func nonASCIIIsKeptAsItIs() {
        #expect(HTMLEscaping.text("Pager · é ▶ 👩‍💻 “quoted”") == "Pager · é ▶ 👩‍💻 “quoted”")
    }

    @Test func alreadyEscapedTextIsEscapedAgain() {
        #expect(HTMLEscaping.text("&amp;") == "&amp;amp;")
    }

    @Test func scriptLiteralsCannotCloseTheScriptElement() {
        let literal = HTMLEscaping.scriptJSON("</script><!-- \"a\\b\"\n\u{2028}&")
        #expect(literal == #""\u003c/script\u003e\u003c!-- \"a\\b\"\n\u2028\u0026""#)
        #expect(!literal.contains("<"))
    }

    @Test func controlCharactersAreEscapedInScriptLiterals() {
        #expect(HTMLEscaping.scriptJSON("a\u{1}b\tc") == #""a\u0001b\tc""#)
    }
}
