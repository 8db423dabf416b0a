# Reads "CPU KEY" lines and prints "CPU REP" where REP is the lowest CPU
# with the same KEY: two tools that number cores, sockets or caches
# differently agree exactly when their REP columns agree.  A KEY of "-" or
# "" stays as "-".
{ cpu[NR] = $1; key[NR] = $2
  if ($2 != "-" && $2 != "" && (!($2 in rep) || $1 + 0 < rep[$2] + 0)) rep[$2] = $1 }
END { for (i = 1; i <= NR; i++) print cpu[i], ((key[i] == "-" || key[i] == "") ? "-" : rep[key[i]]) }
