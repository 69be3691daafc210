/**
 * A deployment script that holds its run at the script step until `marker` exists on the lab
 * server, for at most `seconds`: a test then checks what happens while a run is still going (a
 * screen, a reload, a killed instance) without racing its end, and releases it by creating the
 * marker. Plain sh, no seq (not every server has it).
 */
export function holdScript(marker: string, seconds: number): string {
  return `echo holding; i=0; while [ $i -lt ${seconds} ]; do [ -f ${marker} ] && exit 0; sleep 1; i=$((i + 1)); done; exit 1\n`;
}
