"""LIEF as an independent Mach-O reader for swcred's tests: prints, as JSON, each slice's CPU
type, its offset in the file, and its LC_CODE_SIGNATURE data offset and size."""
import json
import sys

import lief

fat = lief.MachO.parse(sys.argv[1])
if fat is None:
    sys.exit(2)
slices = []
for binary in fat:
    signature = binary.code_signature if binary.has_code_signature else None
    slices.append({
        "cpu": int(binary.header.cpu_type.value) & 0xFFFFFFFF,
        "offset": binary.fat_offset,
        "dataoff": signature.data_offset if signature else None,
        "datasize": signature.data_size if signature else None,
    })
print(json.dumps(slices))
