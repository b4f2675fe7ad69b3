# Script mode: writes OUT, a C++ file defining SYMBOL as the text of IN.
file(READ "${IN}" content)
set(delim "stackscope_embed")
file(WRITE "${OUT}.tmp" "// Generated from ${IN}; do not edit.\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = R\"${delim}(${content})${delim}\";\n")
file(RENAME "${OUT}.tmp" "${OUT}")
