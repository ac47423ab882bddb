# the realworld test's jq workload (jq -Rs -f work.jq work.lua)
split("\n")
| map(length) as $lens
| {lines: ($lens | length), longest: ($lens | max), total: ($lens | add),
   words: [.[] | select(test("local")? // (index("local") != null))] | length}
| tojson | fromjson | to_entries | map("\(.key)=\(.value)") | join(",")
