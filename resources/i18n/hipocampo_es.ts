<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es" sourcelanguage="en">
<context>
    <name>ActivityDelegate</name>
    <message>
        <location filename="../../desktop/activity/delegate.py" line="78"/>
        <source>undone</source>
        <translation>deshecho</translation>
    </message>
</context>
<context>
    <name>ActivityModel</name>
    <message>
        <location filename="../../desktop/activity/model.py" line="47"/>
        <source>just now</source>
        <extracomment>bookkeeping the core keeps for reflect and insight review: not something to take back from here client chip hues, most distinct first: the first few clients get colours far apart</extracomment>
        <translation>ahora mismo</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="49"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>hace %n min</numerusform>
            <numerusform>hace %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="53"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>hace %n h</numerusform>
            <numerusform>hace %n h</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="55"/>
        <source>yesterday {time}</source>
        <translation>ayer {time}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="163"/>
        <source>created {name} ({type})</source>
        <translation>creó {name} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="162"/>
        <source>created {name}</source>
        <translation>creó {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="116"/>
        <source>added to {name}: {text}</source>
        <translation>añadió a {name}: {text}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="121"/>
        <source>added %n observations to {name}</source>
        <translation>
            <numerusform>añadió %n observación a {name}</numerusform>
            <numerusform>añadió %n observaciones a {name}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="117"/>
        <source>removed from {name}: {text}</source>
        <translation>quitó de {name}: {text}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="122"/>
        <source>removed %n observations from {name}</source>
        <translation>
            <numerusform>quitó %n observación de {name}</numerusform>
            <numerusform>quitó %n observaciones de {name}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="118"/>
        <source>edited an observation of {name}: {text}</source>
        <translation>editó una observación de {name}: {text}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="124"/>
        <source>deleted {name} ({type}, %n observations)</source>
        <translation>
            <numerusform>eliminó {name} ({type}, %n observación)</numerusform>
            <numerusform>eliminó {name} ({type}, %n observaciones)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="127"/>
        <source>related {src} → {dst} ({type})</source>
        <translation>relacionó {src} → {dst} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="129"/>
        <source>changed the properties of the relation {src} → {dst} ({type})</source>
        <translation>cambió las propiedades de la relación {src} → {dst} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="130"/>
        <source>removed the relation {src} → {dst} ({type})</source>
        <translation>quitó la relación {src} → {dst} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="131"/>
        <source>ended the relation {src} → {dst} ({type})</source>
        <translation>dio por terminada la relación {src} → {dst} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="132"/>
        <source>reopened the relation {src} → {dst} ({type})</source>
        <translation>reabrió la relación {src} → {dst} ({type})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="137"/>
        <source>changed {name} from {old} to {new}</source>
        <translation>cambió {name} de {old} a {new}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="139"/>
        <source>updated the details of {name}</source>
        <translation>actualizó los detalles de {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="141"/>
        <source>renamed {old} to {new}</source>
        <translation>renombró {old} como {new}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="164"/>
        <source>archived {name}</source>
        <translation>archivó {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="165"/>
        <source>took {name} out of the archive</source>
        <translation>sacó {name} del archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="166"/>
        <source>restored {name}</source>
        <translation>restauró {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="167"/>
        <source>proposed the insight {name}</source>
        <translation>propuso el hallazgo {name}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="159"/>
        <source>saved {name} (%n changes)</source>
        <translation>
            <numerusform>guardó {name} (%n cambio)</numerusform>
            <numerusform>guardó {name} (%n cambios)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="146"/>
        <source>redid: {what}</source>
        <translation>rehízo: {what}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="146"/>
        <source>undid: {what}</source>
        <translation>deshizo: {what}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="161"/>
        <source>undid change #{id} on {name}</source>
        <translation>deshizo el cambio n.º {id} en {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="168"/>
        <source>approved the insight {name}</source>
        <translation>aprobó el hallazgo {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="169"/>
        <source>dismissed the insight {name}</source>
        <translation>descartó el hallazgo {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="170"/>
        <source>wrote out the insight {name}</source>
        <translation>guardó por escrito el hallazgo {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="171"/>
        <source>reviewed the insight {name}</source>
        <translation>revisó el hallazgo {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="172"/>
        <source>marked the insight {name} as stale</source>
        <translation>marcó el hallazgo {name} como desactualizado</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="173"/>
        <source>found the insight {name} holds again</source>
        <translation>comprobó que el hallazgo {name} vuelve a ser válido</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="150"/>
        <source>1 new insight</source>
        <translation>1 hallazgo nuevo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="151"/>
        <source>{n} new insights</source>
        <translation>{n} hallazgos nuevos</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="153"/>
        <source>1 refreshed</source>
        <translation>1 actualizada</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="154"/>
        <source>{n} refreshed</source>
        <translation>{n} actualizadas</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="155"/>
        <source>reflected on the memory: {found}</source>
        <translation>reflexionó sobre la memoria: {found}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/activity/model.py" line="157"/>
        <source>let the confidence of %n insights fade with time</source>
        <translation>
            <numerusform>dejó que la confianza de %n hallazgo bajara con el tiempo</numerusform>
            <numerusform>dejó que la confianza de %n hallazgos bajara con el tiempo</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="384"/>
        <source>When</source>
        <translation>Cuándo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="384"/>
        <source>Client</source>
        <translation>Cliente</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="384"/>
        <source>What happened</source>
        <translation>Qué pasó</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="418"/>
        <source>Written by {actor}</source>
        <translation>Escrito por {actor}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="430"/>
        <source>… and {n} more</source>
        <translation>… y {n} más</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="434"/>
        <source>Undone since (change #{id}).</source>
        <translation>Deshecho más tarde (cambio n.º {id}).</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="144"/>
        <source>merged {merged} into {name}</source>
        <translation>fusionó {merged} en {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="94"/>
        <source>{names} and {n} more</source>
        <translation>{names} y {n} más</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="96"/>
        <source>searched for {query} and found nothing</source>
        <translation>buscó {query} y no encontró nada</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="97"/>
        <source>read the memory and found nothing</source>
        <translation>leyó la memoria y no encontró nada</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="99"/>
        <source>recalled {names} for {query}</source>
        <translation>recordó {names} para {query}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="100"/>
        <source>recalled {names}</source>
        <translation>recordó {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="417"/>
        <source>Read by {actor}</source>
        <translation>Leído por {actor}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/model.py" line="422"/>
        <source>through {tool}</source>
        <translation>con {tool}</translation>
    </message>
</context>
<context>
    <name>ActivityPane</name>
    <message>
        <location filename="../../desktop/activity/pane.py" line="132"/>
        <source>Show the changes of one client only</source>
        <translation>Mostrar solo los cambios de un cliente</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="134"/>
        <location filename="../../desktop/activity/pane.py" line="339"/>
        <source>All clients</source>
        <translation>Todos los clientes</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="136"/>
        <source>Show the changes of a time span only</source>
        <translation>Mostrar solo los cambios de un periodo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="137"/>
        <source>Any time</source>
        <translation>Cualquier fecha</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="137"/>
        <source>Today</source>
        <translation>Hoy</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="138"/>
        <source>Yesterday</source>
        <translation>Ayer</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="138"/>
        <source>Last 7 days</source>
        <translation>Últimos 7 días</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="139"/>
        <source>Last 30 days</source>
        <translation>Últimos 30 días</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="139"/>
        <source>On a day…</source>
        <translation>Un día concreto…</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="150"/>
        <location filename="../../desktop/activity/pane.py" line="477"/>
        <source>Undo</source>
        <translation>Deshacer</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="151"/>
        <location filename="../../desktop/activity/pane.py" line="489"/>
        <source>Take back the selected change (it can be redone)</source>
        <translation>Deshacer el cambio seleccionado (se puede rehacer)</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="164"/>
        <source>Hide this message</source>
        <translation>Ocultar este mensaje</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="342"/>
        <source>{client} ({count})</source>
        <translation>{client} ({count})</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="379"/>
        <source>The activity could not be read: {message}</source>
        <translation>No se pudo leer la actividad: {message}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="415"/>
        <source>“{name}” no longer exists. Undo its deletion to bring it back.</source>
        <translation>«{name}» ya no existe. Deshaz su eliminación para recuperarla.</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="429"/>
        <source>change #{id}</source>
        <translation>cambio n.º {id}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="430"/>
        <source>Undone: {what}</source>
        <translation>Deshecho: {what}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="435"/>
        <source>Could not undo: {message}</source>
        <translation>No se pudo deshacer: {message}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="445"/>
        <source>Open “{name}”</source>
        <translation>Abrir «{name}»</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="452"/>
        <source>Only changes by {client}</source>
        <translation>Solo cambios de {client}</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="477"/>
        <source>Redo</source>
        <translation>Rehacer</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="485"/>
        <source>This kind of change cannot be undone from here</source>
        <translation>Este tipo de cambio no se puede deshacer desde aquí</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="487"/>
        <source>Already undone: the row of its undo can redo it</source>
        <translation>Ya está deshecho: se puede rehacer desde la fila que lo deshizo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="520"/>
        <source>Nothing has been written yet</source>
        <translation>Todavía no se ha escrito nada</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="521"/>
        <source>What your assistants write to this memory — Claude, Cursor, any MCP client — appears here as it happens, newest first, with who wrote it. Any change can be undone from here.</source>
        <translation>Lo que tus asistentes escriben en esta memoria —Claude, Cursor, cualquier cliente MCP— aparece aquí en el momento, lo más reciente primero y con quién lo escribió. Cualquier cambio se puede deshacer desde aquí.</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="526"/>
        <source>No changes by {client} in this time span.</source>
        <translation>No hay cambios de {client} en este periodo.</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="529"/>
        <source>No changes by {client} yet.</source>
        <translation>Todavía no hay cambios de {client}.</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="531"/>
        <source>No changes in this time span.</source>
        <translation>No hay cambios en este periodo.</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="532"/>
        <source>Show everything</source>
        <translation>Mostrar todo</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="142"/>
        <source>Show what the assistants wrote, what they recalled, or both</source>
        <translation>Mostrar lo que escribieron los asistentes, lo que recordaron, o ambas cosas</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="143"/>
        <source>Writes and reads</source>
        <translation>Escrituras y lecturas</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="143"/>
        <source>Writes</source>
        <translation>Escrituras</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="144"/>
        <source>Reads</source>
        <translation>Lecturas</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="515"/>
        <source>No assistant has recalled anything yet</source>
        <translation>Ningún asistente ha recordado nada todavía</translation>
    </message>
    <message>
        <location filename="../../desktop/activity/pane.py" line="516"/>
        <source>Each search and read an assistant makes through MCP appears here, with what it found. Settings can turn this log off.</source>
        <translation>Cada búsqueda y lectura que un asistente hace por MCP aparece aquí, con lo que encontró. Los ajustes pueden desactivar este registro.</translation>
    </message>
</context>
<context>
    <name>ConflictBanner</name>
    <message>
        <location filename="../../desktop/editor/banner.py" line="27"/>
        <source>Reload (discard mine)</source>
        <translation>Recargar (descartar lo mío)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/banner.py" line="28"/>
        <source>Throw away your unsaved edits and show the entity as it is now</source>
        <translation>Descartar tus cambios sin guardar y mostrar la entidad como está ahora</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/banner.py" line="29"/>
        <source>Merge</source>
        <translation>Combinar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/banner.py" line="30"/>
        <source>Keep your edits, re-applied on top of the new state; then review and save</source>
        <translation>Conservar tus cambios, aplicados de nuevo sobre el estado actual; después revísalos y guarda</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/banner.py" line="51"/>
        <source>Deleted by {who} while you were editing</source>
        <translation>{who} la eliminó mientras la editabas</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/banner.py" line="53"/>
        <source>Changed by {who} while you were editing</source>
        <translation>{who} la cambió mientras la editabas</translation>
    </message>
</context>
<context>
    <name>ConnectClientPanel</name>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="57"/>
        <source>Run this command in a terminal, or let Hipocampo add the server to {file} for you.</source>
        <extracomment>a sentence saying what was done, for a status bar Hipocampo was written into the client&apos;s file</extracomment>
        <translation>Ejecuta esta orden en una terminal, o deja que Hipocampo añada el servidor a {file} por ti.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="60"/>
        <source>{client} reads its servers from {file}. Let Hipocampo add itself there, or paste this into the file yourself.</source>
        <translation>{client} lee sus servidores de {file}. Deja que Hipocampo se añada ahí, o pega esto tú en el archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="78"/>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="80"/>
        <source>Add to {client}</source>
        <translation>Añadir a {client}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="114"/>
        <source>Tip: in Claude Desktop, Settings → Developer → Edit Config opens the same file.</source>
        <translation>Consejo: en Claude Desktop, Settings → Developer → Edit Config abre el mismo archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="116"/>
        <source>Servers you add for all your projects live under “mcpServers” in that file; “claude mcp list” shows them.</source>
        <translation>Los servidores que añades para todos tus proyectos están en «mcpServers» de ese archivo; «claude mcp list» los muestra.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="119"/>
        <source>For one project only, put the same lines in .cursor/mcp.json inside it.</source>
        <translation>Para un solo proyecto, pon las mismas líneas en .cursor/mcp.json dentro de él.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="120"/>
        <source>For one project only, put the same lines in opencode.json at its root.</source>
        <translation>Para un solo proyecto, pon las mismas líneas en opencode.json en su raíz.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="124"/>
        <source>Copied to the clipboard.</source>
        <translation>Copiado al portapapeles.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="163"/>
        <source>{client} is already set up: {file} starts Hipocampo.</source>
        <translation>{client} ya está configurado: {file} inicia Hipocampo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="165"/>
        <source>Added to {file} (backup: {backup}).</source>
        <translation>Añadido a {file} (copia de seguridad: {backup}).</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="167"/>
        <source>Added to {file}.</source>
        <translation>Añadido a {file}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="169"/>
        <source>Your existing “{other}” server was kept; Hipocampo is “{key}” beside it.</source>
        <translation>Se conservó tu servidor «{other}»; Hipocampo es «{key}», a su lado.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="171"/>
        <source>Restart {client} to use it.</source>
        <translation>Reinicia {client} para usarlo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="87"/>
        <source>Add session hooks</source>
        <translation>Añadir ganchos de sesión</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="89"/>
        <source>Each new session starts with the memory&apos;s brief, and Claude is reminded to save what it learned (~/.claude/settings.json; a backup is kept)</source>
        <translation>Cada sesión nueva empieza con el resumen de la memoria, y a Claude se le recuerda guardar lo que aprendió (~/.claude/settings.json; se guarda una copia)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="149"/>
        <source>Claude Code already runs Hipocampo&apos;s hooks ({file}).</source>
        <translation>Claude Code ya ejecuta los ganchos de Hipocampo ({file}).</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="151"/>
        <source>Session hooks added to {file} (backup: {backup}). New sessions start with the brief.</source>
        <translation>Ganchos de sesión añadidos a {file} (copia: {backup}). Las sesiones nuevas empiezan con el resumen.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="154"/>
        <source>Session hooks added to {file}. New sessions start with the brief.</source>
        <translation>Ganchos de sesión añadidos a {file}. Las sesiones nuevas empiezan con el resumen.</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="245"/>
        <source>Connect an assistant</source>
        <extracomment>a sentence saying what was done, for a status bar</extracomment>
        <translation>Conecta un asistente</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="247"/>
        <source>Each assistant keeps its own list of servers. Add Hipocampo to the ones you use; they will read and write this memory:</source>
        <translation>Cada asistente guarda su propia lista de servidores. Añade Hipocampo a los que uses; leerán y escribirán en esta memoria:</translation>
    </message>
</context>
<context>
    <name>CrashDialog</name>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="81"/>
        <source>Hipocampo: something went wrong</source>
        <translation>Hipocampo: algo salió mal</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="86"/>
        <source>Something went wrong</source>
        <translation>Algo salió mal</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="93"/>
        <source>Your memory is safe: every change is written to its file as it is made, and nothing that was saved is lost. You can keep working; if something looks wrong, restart Hipocampo.</source>
        <translation>Tu memoria está a salvo: cada cambio se escribe en su archivo en el momento y no se pierde nada de lo guardado. Puedes seguir trabajando; si algo no parece ir bien, reinicia Hipocampo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="99"/>
        <source>A report was saved to {file}.</source>
        <translation>Se guardó un informe en {file}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="110"/>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="125"/>
        <source>Copy details</source>
        <translation>Copiar detalles</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="127"/>
        <source>Open log folder</source>
        <translation>Abrir la carpeta de registros</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="148"/>
        <source>Hipocampo ran into a problem it did not expect: {summary}</source>
        <translation>Hipocampo se encontró con un problema inesperado: {summary}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="152"/>
        <source>Something went wrong ({count} problems)</source>
        <translation>Algo salió mal ({count} problemas)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/crash.py" line="163"/>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
</context>
<context>
    <name>EditorPane</name>
    <message>
        <location filename="../../desktop/editor/pane.py" line="92"/>
        <source>Nothing open.

Pick an entity in the graph or in search to see and edit its observations, relations and history here, or create a new one.</source>
        <translation>No hay nada abierto.

Elige una entidad en el grafo o en la búsqueda para ver y editar aquí sus observaciones, relaciones e historial, o crea una nueva.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="94"/>
        <location filename="../../desktop/editor/pane.py" line="150"/>
        <source>New entity</source>
        <translation>Nueva entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="96"/>
        <source>Restore deleted entity</source>
        <translation>Restaurar la entidad eliminada</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="97"/>
        <source>Bring it back with its observations and the relations to entities that still exist</source>
        <translation>Recuperarla con sus observaciones y las relaciones con entidades que aún existen</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="152"/>
        <source>Not saved yet</source>
        <translation>Aún sin guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="219"/>
        <source>“{name}” was deleted by {who}, {when}.</source>
        <translation>{who} eliminó «{name}» {when}.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="222"/>
        <source>There is no entity called “{name}”.</source>
        <translation>No hay ninguna entidad llamada «{name}».</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="236"/>
        <source>{type} · created {created} · changed {changed}</source>
        <translation>{type} · creada {created} · cambiada {changed}</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="257"/>
        <source>“{name}” could not be read: {reason}</source>
        <translation>No se pudo leer «{name}»: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="327"/>
        <source>An entity called “{name}” already exists.</source>
        <translation>Ya existe una entidad llamada «{name}».</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="340"/>
        <source>Observations ({n})</source>
        <translation>Observaciones ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="343"/>
        <source>Relations ({n})</source>
        <translation>Relaciones ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="344"/>
        <source>Relations ({n}, {ended} ended)</source>
        <translation>Relaciones ({n}, {ended} terminadas)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="351"/>
        <source>Save or revert your edits first</source>
        <translation>Primero guarda o revierte tus cambios</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="353"/>
        <source>Undo: {who} {what} (Ctrl+Z)</source>
        <translation>Deshacer: {who} {what} (Ctrl+Z)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="356"/>
        <source>Nothing to undo</source>
        <translation>No hay nada que deshacer</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="380"/>
        <source>Fix the marked fields first; nothing was saved.</source>
        <translation>Corrige primero los campos marcados; no se guardó nada.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="394"/>
        <source>Saved {name}.</source>
        <translation>{name} guardada.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="403"/>
        <source>someone else</source>
        <translation>otra persona</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="411"/>
        <source>Not saved: {reason}</source>
        <translation>No se guardó: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="443"/>
        <source>Save or revert your edits before undoing.</source>
        <translation>Guarda o revierte tus cambios antes de deshacer.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="446"/>
        <source>Nothing to undo for {name}.</source>
        <translation>No hay nada que deshacer en {name}.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="457"/>
        <source>Undone: {what}.</source>
        <translation>Deshecho: {what}.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="458"/>
        <source>Undone.</source>
        <translation>Deshecho.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="499"/>
        <source>Delete entity</source>
        <translation>Eliminar la entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="500"/>
        <source>Delete “{name}” with its observations and relations?

You can restore it afterwards.</source>
        <translation>¿Eliminar «{name}» con sus observaciones y relaciones?

Podrás restaurarla después.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="519"/>
        <source>Unsaved changes</source>
        <translation>Cambios sin guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="520"/>
        <source>Discard your unsaved edits to “{name}”?</source>
        <translation>¿Descartar tus cambios sin guardar en «{name}»?</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="469"/>
        <source>Save or revert your edits before redoing.</source>
        <translation>Guarda o revierte tus cambios antes de rehacer.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="472"/>
        <source>Nothing to redo for {name}.</source>
        <translation>No hay nada que rehacer en {name}.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="482"/>
        <source>Redone.</source>
        <translation>Rehecho.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pane.py" line="530"/>
        <source>also {names}</source>
        <translation>también {names}</translation>
    </message>
</context>
<context>
    <name>EndpointStatus</name>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="217"/>
        <source>Assistants connect to {url} while this app is open, so what they write appears here as they write it.</source>
        <translation>Los asistentes se conectan a {url} mientras esta aplicación está abierta, así que lo que escriben aparece aquí al momento.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/connect_client.py" line="220"/>
        <source>Each assistant starts Hipocampo by itself when it needs its memory; while this app is open they share it, and what they write appears here as they write it.</source>
        <translation>Cada asistente inicia Hipocampo por su cuenta cuando necesita su memoria; mientras esta aplicación está abierta la comparten, y lo que escriben aparece aquí al momento.</translation>
    </message>
</context>
<context>
    <name>EntityEditor</name>
    <message>
        <location filename="../../desktop/editor/draft.py" line="221"/>
        <source>The name must not be empty.</source>
        <translation>El nombre no puede estar vacío.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="222"/>
        <source>The type must not be empty.</source>
        <translation>El tipo no puede estar vacío.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="224"/>
        <source>{n} characters is too long: at most {limit} fit.</source>
        <translation>{n} caracteres es demasiado largo: caben como máximo {limit}.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="229"/>
        <source>An observation must not be empty: write it or delete it.</source>
        <translation>Una observación no puede estar vacía: escríbela o elimínala.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="232"/>
        <source>This observation is already in the list.</source>
        <translation>Esta observación ya está en la lista.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="236"/>
        <source>Give the relation a type.</source>
        <translation>Indica el tipo de la relación.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/draft.py" line="238"/>
        <source>Name the entity at the other end.</source>
        <translation>Indica la entidad del otro extremo.</translation>
    </message>
</context>
<context>
    <name>EntityPage</name>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="53"/>
        <source>● Unsaved changes</source>
        <translation>● Cambios sin guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="54"/>
        <source>Nothing is written until you press Save (Ctrl+S)</source>
        <translation>No se escribe nada hasta que pulses Guardar (Ctrl+S)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="63"/>
        <source>The entity&apos;s name</source>
        <translation>El nombre de la entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="66"/>
        <source>Person, Project, Concept…</source>
        <translation>Person, Project, Concept…</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="75"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="77"/>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="85"/>
        <source>Observations</source>
        <translation>Observaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="86"/>
        <source>Relations</source>
        <translation>Relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="90"/>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="99"/>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="100"/>
        <source>Write every edit at once (Ctrl+S)</source>
        <translation>Escribir todos los cambios a la vez (Ctrl+S)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="102"/>
        <source>Revert</source>
        <translation>Revertir</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="103"/>
        <source>Discard your unsaved edits</source>
        <translation>Descartar tus cambios sin guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="104"/>
        <source>Undo last change</source>
        <translation>Deshacer el último cambio</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="105"/>
        <source>Delete…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/entity_page.py" line="106"/>
        <source>Delete this entity (it can be restored afterwards)</source>
        <translation>Eliminar esta entidad (se puede restaurar después)</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="39"/>
        <source>Official memory file (memory.jsonl), for the official MCP memory server</source>
        <extracomment>the file name each format gets by default; markdown writes a folder</extracomment>
        <translation>Archivo de memoria oficial (memory.jsonl), para el servidor de memoria MCP oficial</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="40"/>
        <source>Engrama export (NDJSON), for Engrama or another Hipocampo</source>
        <translation>Exportación de Engrama (NDJSON), para Engrama u otro Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="41"/>
        <source>GraphML, for Gephi, yEd or Cytoscape</source>
        <translation>GraphML, para Gephi, yEd o Cytoscape</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="42"/>
        <source>Markdown notes, one file per entity in a folder</source>
        <translation>Notas en Markdown, un archivo por entidad en una carpeta</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="58"/>
        <source>Export the memory</source>
        <translation>Exportar la memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="62"/>
        <source>Export every entity and relation</source>
        <translation>Exportar todas las entidades y relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="73"/>
        <source>Format:</source>
        <translation>Formato:</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="76"/>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="81"/>
        <location filename="../../desktop/dialogs/export_dialog.py" line="117"/>
        <source>File:</source>
        <translation>Archivo:</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="95"/>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="117"/>
        <source>Folder:</source>
        <translation>Carpeta:</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="130"/>
        <source>Choose where to write the export.</source>
        <translation>Elige dónde escribir la exportación.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="132"/>
        <source>The folder is not empty: notes with the same names will be replaced.</source>
        <translation>La carpeta no está vacía: se reemplazarán las notas con el mismo nombre.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="134"/>
        <location filename="../../desktop/dialogs/export_dialog.py" line="158"/>
        <source>That is a folder; this format writes one file.</source>
        <translation>Eso es una carpeta; este formato escribe un solo archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="136"/>
        <source>{name} exists and will be replaced.</source>
        <translation>{name} ya existe y se reemplazará.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="144"/>
        <source>Export notes into</source>
        <translation>Exportar las notas en</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="146"/>
        <source>Export to</source>
        <translation>Exportar a</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="165"/>
        <source>Exporting…</source>
        <translation>Exportando…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="175"/>
        <source>1 entity</source>
        <translation>1 entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="175"/>
        <source>{n} entities</source>
        <translation>{n} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="177"/>
        <source>Wrote {what}, one note each, with their relations, to {path}.</source>
        <translation>Se escribieron {what}, una nota por entidad, con sus relaciones, en {path}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="179"/>
        <source>1 relation</source>
        <translation>1 relación</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="179"/>
        <source>{n} relations</source>
        <translation>{n} relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="180"/>
        <source>Wrote {what} and {links} to {path}.</source>
        <translation>Se escribieron {what} y {links} en {path}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="186"/>
        <source>The export failed: {reason}</source>
        <translation>La exportación falló: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/export_dialog.py" line="213"/>
        <source>Cannot write {path}: {reason}.</source>
        <translation>No se puede escribir {path}: {reason}.</translation>
    </message>
</context>
<context>
    <name>FirstRunDialog</name>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="75"/>
        <location filename="../../desktop/dialogs/first_run.py" line="81"/>
        <source>Welcome to Hipocampo</source>
        <extracomment>files to import through the usual preview (the app opens its import dialog) the search for other tools&apos; memories finished (with what it found)</extracomment>
        <translation>Te damos la bienvenida a Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="83"/>
        <source>A memory for your AI assistants, kept on this computer.</source>
        <translation>Una memoria para tus asistentes de IA, guardada en este equipo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="97"/>
        <source>Claude, Cursor, opencode and other assistants save what they learn — people, projects, decisions, preferences — into a knowledge graph here, and recall it in later conversations. In this window you can see that graph, search it by meaning, correct it, and approve the connections Hipocampo notices. Nothing leaves your computer.</source>
        <translation>Claude, Cursor, opencode y otros asistentes guardan aquí lo que aprenden —personas, proyectos, decisiones, preferencias— en un grafo de conocimiento, y lo recuerdan en conversaciones posteriores. En esta ventana puedes ver ese grafo, buscar en él por significado, corregirlo y aprobar las conexiones que Hipocampo descubre. Nada sale de tu equipo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="108"/>
        <source>Open folder</source>
        <translation>Abrir carpeta</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="129"/>
        <source>Start using Hipocampo</source>
        <translation>Empezar a usar Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="140"/>
        <source>Your memory</source>
        <translation>Tu memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="148"/>
        <source>Connect an assistant</source>
        <translation>Conecta un asistente</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="118"/>
        <source>Bring your memory along</source>
        <translation>Trae tu memoria contigo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="119"/>
        <source>Looking for memories other tools keep on this computer…</source>
        <translation>Buscando memorias que otras herramientas guardan en este ordenador…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="177"/>
        <source>You already have a memory from another tool. Import it to keep what your assistants learned; you will see what it adds before anything changes.</source>
        <translation>Ya tienes una memoria de otra herramienta. Impórtala para conservar lo que aprendieron tus asistentes; verás lo que añade antes de que cambie nada.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="189"/>
        <source>Import…</source>
        <translation>Importar…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="190"/>
        <source>See what it adds, then import it</source>
        <translation>Mira lo que añade y luego impórtala</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="203"/>
        <source>Official memory server</source>
        <translation>Servidor de memoria oficial</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="203"/>
        <source>MCP Memory v2</source>
        <translation>MCP Memory v2</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="204"/>
        <source>Engrama</source>
        <translation>Engrama</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="206"/>
        <source>1 entity</source>
        <translation>1 entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="207"/>
        <source>{n} entities</source>
        <translation>{n} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="208"/>
        <source>1 relation</source>
        <translation>1 relación</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="209"/>
        <source>{n} relations</source>
        <translation>{n} relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="210"/>
        <source>{source}: {entities}, {relations}</source>
        <translation>{source}: {entities}, {relations}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="213"/>
        <source>, 1 insight</source>
        <translation>, 1 hallazgo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="214"/>
        <source>, {n} insights</source>
        <translation>, {n} hallazgos</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/first_run.py" line="216"/>
        <source>(set in {place})</source>
        <translation>(configurado en {place})</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <location filename="../../desktop/graph/legend.py" line="26"/>
        <source>Click a type to see its best-connected entities</source>
        <translation>Haz clic en un tipo para ver sus entidades mejor conectadas</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/legend.py" line="46"/>
        <source>{count} more types</source>
        <translation>{count} tipos más</translation>
    </message>
</context>
<context>
    <name>GraphPane</name>
    <message>
        <location filename="../../desktop/graph/pane.py" line="113"/>
        <source>Loading the graph…</source>
        <extracomment>a new picture is on screen (after show_*, an expansion or a live refresh)</extracomment>
        <translation>Cargando el grafo…</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="121"/>
        <source>The whole memory, coloured by type: a large one as groups of related entities (double-click one to open it)</source>
        <translation>Toda la memoria, coloreada por tipo: una grande, como grupos de entidades relacionadas (doble clic en uno para abrirlo)</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="123"/>
        <source>Overview</source>
        <translation>Vista general</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="126"/>
        <source>Most connected</source>
        <translation>Más conectadas</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="126"/>
        <source>Most recalled</source>
        <translation>Más recordadas</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="138"/>
        <source>How far from the selected entity to look</source>
        <translation>Hasta qué distancia de la entidad seleccionada mirar</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="142"/>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="142"/>
        <source>Show everything (F)</source>
        <translation>Mostrar todo (F)</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="143"/>
        <source>Zoom out (-)</source>
        <translation>Alejar (-)</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="144"/>
        <source>Zoom in (+)</source>
        <translation>Acercar (+)</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="214"/>
        <source>Laying out…</source>
        <translation>Distribuyendo…</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="231"/>
        <source>“{name}” is no longer in the memory.</source>
        <translation>«{name}» ya no está en la memoria.</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="241"/>
        <source>Nothing remembered yet</source>
        <translation>Todavía no se recuerda nada</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="242"/>
        <source>When you or your assistants remember people, projects and ideas, they appear here, linked by what relates them.</source>
        <translation>Las personas, los proyectos y los conceptos que recuerdes tú o tus asistentes aparecerán aquí, enlazados por lo que los relaciona.</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="245"/>
        <source>Nothing to show</source>
        <translation>Nada que mostrar</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="245"/>
        <source>None of these entities exist any more.</source>
        <translation>Ya no existe ninguna de estas entidades.</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="266"/>
        <source>{groups} groups of related entities, of {total} entities</source>
        <translation>{groups} grupos de entidades relacionadas, de {total} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="269"/>
        <source> · {count} smaller groups</source>
        <translation> · {count} grupos más pequeños</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="271"/>
        <source> · {count} without relations</source>
        <translation> · {count} sin relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="274"/>
        <source>Group around {name}: {total} entities</source>
        <translation>Grupo en torno a {name}: {total} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="275"/>
        <source>Group around {name}: the {shown} best-connected of {total} entities</source>
        <translation>Grupo en torno a {name}: las {shown} mejor conectadas de {total} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="280"/>
        <source>All {shown} entities</source>
        <translation>Todas las {shown} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="282"/>
        <source>The {shown} most recalled of {total} entities</source>
        <translation>Las {shown} más recordadas de {total} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="283"/>
        <source>The {shown} best-connected of {total} entities</source>
        <translation>Las {shown} mejor conectadas de {total} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="286"/>
        <source>{type}: {text}</source>
        <translation>{type}: {text}</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="288"/>
        <source>{name}: {count} entities within {hops}</source>
        <translation>{name}: {count} entidades a {hops}</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="291"/>
        <source>Evidence: {count} entities</source>
        <translation>Pruebas: {count} entidades</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="293"/>
        <source> · {count} expanded</source>
        <translation> · {count} desplegadas</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="297"/>
        <source>1 hop</source>
        <translation>1 salto</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="297"/>
        <source>2 hops</source>
        <translation>2 saltos</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="297"/>
        <source>3 hops</source>
        <translation>3 saltos</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/pane.py" line="307"/>
        <source>A group of {count} related entities around {name}: double-click to open it</source>
        <translation>Un grupo de {count} entidades relacionadas en torno a {name}: doble clic para abrirlo</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/items.py" line="114"/>
        <source>{name} · {count}</source>
        <translation>{name} · {count}</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/items.py" line="119"/>
        <source>A group of {count} related entities around {name}, mostly {type}
Double-click to open it</source>
        <translation>Un grupo de {count} entidades relacionadas en torno a {name}, sobre todo {type}
Doble clic para abrirlo</translation>
    </message>
    <message>
        <location filename="../../desktop/graph/items.py" line="123"/>
        <source>{name}
{type}</source>
        <translation>{name}
{type}</translation>
    </message>
</context>
<context>
    <name>HipocampoApp</name>
    <message>
        <location filename="../../desktop/app.py" line="237"/>
        <source>Cannot open the memory</source>
        <translation>No se puede abrir la memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="238"/>
        <source>Hipocampo could not open {path}:

{reason}

Choose another file with File → Open memory, or check the file.</source>
        <translation>Hipocampo no pudo abrir {path}:

{reason}

Elige otro archivo con Archivo → Abrir memoria, o revisa el archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="270"/>
        <source>Hipocampo keeps serving your assistants from the tray. Quit it from the tray menu.</source>
        <translation>Hipocampo sigue atendiendo a tus asistentes desde la bandeja del sistema. Para salir, usa el menú de la bandeja.</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="295"/>
        <source>Back up the memory</source>
        <translation>Copia de seguridad de la memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="296"/>
        <location filename="../../desktop/app.py" line="306"/>
        <source>Hipocampo memory (*.db)</source>
        <translation>Memoria de Hipocampo (*.db)</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="300"/>
        <source>Backed up to {path}</source>
        <translation>Copia de seguridad guardada en {path}</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="301"/>
        <source>Backup failed</source>
        <translation>La copia de seguridad falló</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="304"/>
        <location filename="../../desktop/app.py" line="310"/>
        <source>New memory</source>
        <translation>Nueva memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="311"/>
        <source>{path} already exists; use Open memory for an existing file.</source>
        <translation>{path} ya existe; usa Abrir memoria para un archivo existente.</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="317"/>
        <source>Open memory</source>
        <translation>Abrir memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="318"/>
        <source>Memories (*.db *.sqlite);;All files (*)</source>
        <translation>Memorias (*.db *.sqlite);;Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="377"/>
        <source>About Hipocampo</source>
        <translation>Acerca de Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="378"/>
        <source>&lt;h3&gt;Hipocampo {version}&lt;/h3&gt;&lt;p&gt;A local-first memory for AI assistants: a knowledge graph on your own machine that Claude, Cursor, opencode and other MCP clients write to and read from.&lt;/p&gt;&lt;p&gt;Memory file: &lt;code&gt;{db}&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Hipocampo {version}&lt;/h3&gt;&lt;p&gt;Una memoria local para asistentes de IA: un grafo de conocimiento en tu propio equipo en el que Claude, Cursor, opencode y otros clientes MCP escriben y leen.&lt;/p&gt;&lt;p&gt;Archivo de memoria: &lt;code&gt;{db}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="28"/>
        <source>you (this app)</source>
        <translation>tú (esta aplicación)</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="28"/>
        <source>command line</source>
        <translation>línea de órdenes</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="29"/>
        <source>import</source>
        <translation>importación</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="79"/>
        <source>created {name}</source>
        <translation>creó {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="80"/>
        <source>deleted {name}</source>
        <translation>eliminó {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="81"/>
        <source>restored {name}</source>
        <translation>restauró {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="81"/>
        <source>archived {name}</source>
        <translation>archivó {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="82"/>
        <source>brought {name} back from the archive</source>
        <translation>sacó {name} del archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="83"/>
        <location filename="../../desktop/shared/history_view.py" line="84"/>
        <source>updated the properties of {name}</source>
        <translation>actualizó las propiedades de {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="47"/>
        <source>added “{text}”</source>
        <translation>añadió «{text}»</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="51"/>
        <source>added {n} observations</source>
        <translation>añadió {n} observaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="47"/>
        <source>deleted “{text}”</source>
        <translation>eliminó «{text}»</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="52"/>
        <source>deleted {n} observations</source>
        <translation>eliminó {n} observaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="48"/>
        <source>edited an observation to “{text}”</source>
        <translation>cambió una observación a «{text}»</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="55"/>
        <source>renamed {old} to {new}</source>
        <translation>renombró {old} como {new}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="57"/>
        <source>set the type to {type}</source>
        <translation>cambió el tipo a {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="60"/>
        <source>added {src} —{type}→ {dst}</source>
        <translation>añadió {src} —{type}→ {dst}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="61"/>
        <source>changed the properties of {src} —{type}→ {dst}</source>
        <translation>cambió las propiedades de {src} —{type}→ {dst}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="62"/>
        <source>removed {src} —{type}→ {dst}</source>
        <translation>quitó {src} —{type}→ {dst}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="63"/>
        <source>ended {src} —{type}→ {dst}</source>
        <translation>terminó {src} —{type}→ {dst}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="64"/>
        <source>made {src} —{type}→ {dst} current again</source>
        <translation>volvió a dar por vigente {src} —{type}→ {dst}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="68"/>
        <source>saved {n} changes</source>
        <translation>guardó {n} cambios</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="75"/>
        <location filename="../../desktop/shared/history_view.py" line="76"/>
        <source>undid: {what}</source>
        <translation>deshizo: {what}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="78"/>
        <source>undid a change</source>
        <translation>deshizo un cambio</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="88"/>
        <source>{op} {name}</source>
        <translation>{op} {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="140"/>
        <source>{what}
{who} · {when}</source>
        <translation>{what}
{who} · {when}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="143"/>
        <source>Change #{id} by {actor} at {at}</source>
        <translation>Cambio n.º {id} de {actor} el {at}</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="148"/>
        <source>No changes recorded yet.</source>
        <translation>Todavía no hay cambios registrados.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/history_view.py" line="70"/>
        <source>merged {merged} into {name}</source>
        <translation>fusionó {merged} en {name}</translation>
    </message>
</context>
<context>
    <name>Hub</name>
    <message>
        <location filename="../../desktop/hub.py" line="84"/>
        <source>Another Hipocampo hub serves this memory (process {pid}, port {port}); assistants use that one.</source>
        <translation>Otro servidor de Hipocampo atiende esta memoria (proceso {pid}, puerto {port}); los asistentes usan ese.</translation>
    </message>
    <message>
        <location filename="../../desktop/hub.py" line="109"/>
        <source>The assistant endpoint could not listen on port {port}: {reason}</source>
        <translation>El servidor para asistentes no pudo escuchar en el puerto {port}: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/hub.py" line="113"/>
        <source>The assistant endpoint stopped: {reason}</source>
        <translation>El servidor para asistentes se detuvo: {reason}</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="40"/>
        <source>Official memory file (JSONL)</source>
        <translation>Archivo de memoria oficial (JSONL)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="41"/>
        <source>Engrama export (NDJSON)</source>
        <translation>Exportación de Engrama (NDJSON)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="42"/>
        <source>Memory database (MCP Memory v2 / Hipocampo)</source>
        <translation>Base de datos de memoria (MCP Memory v2 / Hipocampo)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="44"/>
        <source>Markdown / text notes</source>
        <translation>Notas en Markdown / texto</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="45"/>
        <source>Cannot be imported</source>
        <translation>No se puede importar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="51"/>
        <source> and {n} more</source>
        <translation> y {n} más</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="61"/>
        <source>{n} new entity</source>
        <translation>{n} entidad nueva</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="61"/>
        <source>{n} new entities</source>
        <translation>{n} entidades nuevas</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="62"/>
        <source>{n} existing one</source>
        <translation>{n} existente</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="62"/>
        <source>{n} existing ones</source>
        <translation>{n} existentes</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="63"/>
        <source>{n} new relation</source>
        <translation>{n} relación nueva</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="63"/>
        <source>{n} new relations</source>
        <translation>{n} relaciones nuevas</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="65"/>
        <source>Added {new} and {relations}, and added to {merged}.</source>
        <translation>Se añadieron {new} y {relations}, y se añadió a {merged}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="66"/>
        <source>Added {new} and {relations}.</source>
        <translation>Se añadieron {new} y {relations}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="69"/>
        <source>{new}, {relations}; adds to {merged}.</source>
        <translation>{new}, {relations}; añade a {merged}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="70"/>
        <source>{new}, {relations}.</source>
        <translation>{new}, {relations}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="73"/>
        <source>{n} record is already in the memory.</source>
        <translation>{n} registro ya está en la memoria.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="74"/>
        <source>{n} records are already in the memory.</source>
        <translation>{n} registros ya están en la memoria.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="76"/>
        <source>{n} record could not be read and was skipped.</source>
        <translation>{n} registro no se pudo leer y se omitió.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="77"/>
        <source>{n} records could not be read and were skipped.</source>
        <translation>{n} registros no se pudieron leer y se omitieron.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="78"/>
        <source>{n} record cannot be read and will be skipped.</source>
        <translation>{n} registro no se puede leer y se omitirá.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="79"/>
        <source>{n} records cannot be read and will be skipped.</source>
        <translation>{n} registros no se pueden leer y se omitirán.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="82"/>
        <source>{n} file cannot be imported at all.</source>
        <translation>{n} archivo no se puede importar.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="83"/>
        <source>{n} files cannot be imported at all.</source>
        <translation>{n} archivos no se pueden importar.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="102"/>
        <source>Import into this memory</source>
        <translation>Importar a esta memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="123"/>
        <source>Import</source>
        <translation>Importar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="156"/>
        <source>Cancelling undoes the whole import: the memory stays exactly as it was.</source>
        <translation>Cancelar deshace toda la importación: la memoria queda exactamente como estaba.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="174"/>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="174"/>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="174"/>
        <source>New</source>
        <translation>Nuevas</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="174"/>
        <source>Merged</source>
        <translation>Combinadas</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="175"/>
        <source>Relations</source>
        <translation>Relaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="175"/>
        <source>Unreadable</source>
        <translation>Ilegibles</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="189"/>
        <source>Checking what would change…</source>
        <translation>Comprobando qué cambiaría…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/dialogs/import_dialog.py" line="190"/>
        <source>Reading %n file(s); nothing is written yet.</source>
        <translation>
            <numerusform>Leyendo %n archivo; todavía no se escribe nada.</numerusform>
            <numerusform>Leyendo %n archivos; todavía no se escribe nada.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="214"/>
        <source>Nothing new to import</source>
        <translation>Nada nuevo que importar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="216"/>
        <source>Ready to import</source>
        <translation>Listo para importar</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="228"/>
        <source>Importing…</source>
        <translation>Importando…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="235"/>
        <source>Cancel import</source>
        <translation>Cancelar la importación</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="236"/>
        <source>Stop and undo everything this import wrote</source>
        <translation>Detener y deshacer todo lo que escribió esta importación</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="245"/>
        <source>Reading {name}…</source>
        <translation>Leyendo {name}…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="253"/>
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="254"/>
        <source>Undoing what was written so far…</source>
        <translation>Deshaciendo lo escrito hasta ahora…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="267"/>
        <source>Import cancelled</source>
        <translation>Importación cancelada</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="268"/>
        <source>Nothing was imported: the memory is exactly as it was before.</source>
        <translation>No se importó nada: la memoria está exactamente como antes.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="271"/>
        <source>Import finished</source>
        <translation>Importación terminada</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="288"/>
        <source>These files cannot be read</source>
        <translation>Estos archivos no se pueden leer</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="290"/>
        <source>The import failed</source>
        <translation>La importación falló</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="291"/>
        <source>{reason} Nothing was imported: the memory is as it was.</source>
        <translation>{reason} No se importó nada: la memoria está como estaba.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="346"/>
        <source>Added to: {names}</source>
        <translation>Se añadió a: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="346"/>
        <source>Adds to: {names}</source>
        <translation>Añade a: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="352"/>
        <source>{where}: {reason}</source>
        <translation>{where}: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="358"/>
        <source>…and {n} more unreadable records</source>
        <translation>…y {n} registros ilegibles más</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="274"/>
        <source>The memory as it was before is kept in {path}.</source>
        <translation>La memoria tal como estaba antes se guarda en {path}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/import_dialog.py" line="43"/>
        <source>Engrama database</source>
        <translation>Base de datos de Engrama</translation>
    </message>
</context>
<context>
    <name>InsightListModel</name>
    <message>
        <location filename="../../desktop/insights/model.py" line="31"/>
        <source>Cross-project solution</source>
        <translation>Solución entre proyectos</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="32"/>
        <source>Shared technology</source>
        <translation>Tecnología compartida</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="33"/>
        <source>Training opportunity</source>
        <translation>Oportunidad de formación</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="34"/>
        <source>Technique transfer</source>
        <translation>Transferencia de técnica</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="35"/>
        <source>Concept cluster</source>
        <translation>Grupo de conceptos</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="36"/>
        <source>Stale knowledge</source>
        <translation>Conocimiento desactualizado</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="37"/>
        <source>Under-connected nodes</source>
        <translation>Nodos poco conectados</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="40"/>
        <source>Updated fact</source>
        <translation>Hecho actualizado</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="41"/>
        <source>Facts that disagree</source>
        <translation>Hechos que no concuerdan</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="42"/>
        <source>Updated relation</source>
        <translation>Relación actualizada</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="49"/>
        <source>To review</source>
        <translation>Por revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="49"/>
        <source>Approved</source>
        <translation>Aprobada</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="50"/>
        <source>Dismissed</source>
        <translation>Descartada</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="51"/>
        <source>Approved, written out</source>
        <translation>Aprobada y guardada por escrito</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="57"/>
        <source>open problem</source>
        <translation>problema abierto</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="58"/>
        <source>solved problem</source>
        <translation>problema resuelto</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="59"/>
        <source>project</source>
        <translation>proyecto</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="60"/>
        <source>source project</source>
        <translation>proyecto de origen</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="61"/>
        <source>concept</source>
        <translation>concepto</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="62"/>
        <source>decision</source>
        <translation>decisión</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="63"/>
        <source>technology</source>
        <translation>tecnología</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="64"/>
        <source>user</source>
        <translation>usuario</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="65"/>
        <source>member</source>
        <translation>miembro</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="66"/>
        <source>issue</source>
        <translation>incidencia</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="67"/>
        <source>course</source>
        <translation>curso</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="68"/>
        <source>technique</source>
        <translation>técnica</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="69"/>
        <source>target domain</source>
        <translation>dominio de destino</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="70"/>
        <source>home domain</source>
        <translation>dominio de origen</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="71"/>
        <source>example</source>
        <translation>ejemplo</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="72"/>
        <source>stale</source>
        <translation>desactualizado</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="73"/>
        <source>active</source>
        <translation>activo</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="74"/>
        <source>under-connected</source>
        <translation>poco conectado</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="24"/>
        <location filename="../../desktop/shared/ages.py" line="41"/>
        <source>just now</source>
        <translation>ahora mismo</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="26"/>
        <source>1 year ago</source>
        <translation>hace 1 año</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="27"/>
        <source>{n} years ago</source>
        <translation>hace {n} años</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="28"/>
        <source>1 month ago</source>
        <translation>hace 1 mes</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="29"/>
        <source>{n} months ago</source>
        <translation>hace {n} meses</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="30"/>
        <source>yesterday</source>
        <translation>ayer</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="31"/>
        <source>{n} days ago</source>
        <translation>hace {n} días</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="32"/>
        <source>1 hour ago</source>
        <translation>hace 1 hora</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="33"/>
        <source>{n} hours ago</source>
        <translation>hace {n} horas</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="34"/>
        <source>1 minute ago</source>
        <translation>hace 1 minuto</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/ages.py" line="35"/>
        <source>{n} minutes ago</source>
        <translation>hace {n} minutos</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="191"/>
        <source>evidence changed</source>
        <translation>las pruebas cambiaron</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="38"/>
        <source>Possible duplicates</source>
        <translation>Posibles duplicados</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="39"/>
        <source>Repeated facts</source>
        <translation>Hechos repetidos</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="75"/>
        <source>kept</source>
        <translation>se conserva</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="76"/>
        <source>duplicate</source>
        <translation>duplicado</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/model.py" line="77"/>
        <source>holds the repeats</source>
        <translation>tiene las repeticiones</translation>
    </message>
</context>
<context>
    <name>InsightPreview</name>
    <message>
        <location filename="../../desktop/insights/preview.py" line="34"/>
        <source>Approving will</source>
        <translation>Al aprobar se hará lo siguiente</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="57"/>
        <source>Working out what will change…</source>
        <translation>Calculando qué cambiará…</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="71"/>
        <source>Cannot tell what will change: {reason}</source>
        <translation>No se puede saber qué cambiará: {reason}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="78"/>
        <source>remove %n repeated fact(s) from “{name}”:</source>
        <translation>
            <numerusform>eliminar %n hecho repetido de “{name}”:</numerusform>
            <numerusform>eliminar %n hechos repetidos de “{name}”:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="81"/>
        <source>keep:</source>
        <translation>se conservan:</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="83"/>
        <source>One undo brings them back.</source>
        <translation>Un solo deshacer los recupera.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="85"/>
        <source>merge {names} into “{into}”</source>
        <translation>fusionar {names} en “{into}”</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="87"/>
        <source>add %n fact(s):</source>
        <translation>
            <numerusform>añadir %n hecho:</numerusform>
            <numerusform>añadir %n hechos:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="90"/>
        <source>drop %n repeat(s):</source>
        <translation>
            <numerusform>descartar %n repetición:</numerusform>
            <numerusform>descartar %n repeticiones:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="91"/>
        <source>  – {fact} (repeats “{kept}”)</source>
        <translation>  – {fact} (repite “{kept}”)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="94"/>
        <source>rewire %n relation(s):</source>
        <translation>
            <numerusform>reconectar %n relación:</numerusform>
            <numerusform>reconectar %n relaciones:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/preview.py" line="99"/>
        <source>drop %n relation(s) it would repeat or that would loop:</source>
        <translation>
            <numerusform>descartar %n relación que se repetiría o formaría un bucle:</numerusform>
            <numerusform>descartar %n relaciones que se repetirían o formarían un bucle:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="103"/>
        <source>keep {names} as other names of “{into}”</source>
        <translation>conservar {names} como otros nombres de “{into}”</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="105"/>
        <source>One undo takes the whole merge back.</source>
        <translation>Un solo deshacer revierte toda la fusión.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/preview.py" line="109"/>
        <source>  and {n} more</source>
        <translation>  y {n} más</translation>
    </message>
</context>
<context>
    <name>InsightWords</name>
    <message>
        <location filename="../../desktop/insights/words.py" line="27"/>
        <source>Cross-project solution for </source>
        <translation>Solución de otro proyecto para </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="28"/>
        <source>Shared technology: </source>
        <translation>Tecnología compartida: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="29"/>
        <source>Training opportunity: </source>
        <translation>Oportunidad de formación: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="30"/>
        <source>Technique transfer: </source>
        <translation>Transferencia de técnica: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="31"/>
        <source>Concept cluster: </source>
        <translation>Grupo de conceptos: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="32"/>
        <source>Stale knowledge: </source>
        <translation>Conocimiento desactualizado: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="44"/>
        <source>Under-connected nodes</source>
        <translation>Entidades poco conectadas</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="56"/>
        <source>{shown} and {rest} more</source>
        <translation>{shown} y {rest} más</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="116"/>
        <source>On &quot;{entity}&quot;, {successor} seems to replace the relation {old} → {target}. Approving keeps the relation, marked as superseded with today as its end; the official reads still return it, search no longer answers with it, and one undo takes it back.</source>
        <translation>En «{entity}», {successor} parece sustituir a la relación {old} → {target}. Al aprobarlo, la relación se conserva, marcada como sustituida con fecha de fin de hoy; las lecturas oficiales la siguen devolviendo, la búsqueda ya no responde con ella, y deshacer una vez la recupera.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="126"/>
        <source>The open problem &quot;{problem}&quot; (project &quot;{project}&quot;) shares the concept &quot;{concept}&quot; with &quot;{solved}&quot; (project &quot;{source}&quot;), which was solved by the decision &quot;{decision}&quot;. That decision may apply here.</source>
        <translation>El problema abierto “{problem}” (proyecto “{project}”) comparte el concepto “{concept}” con “{solved}” (proyecto “{source}”), que se resolvió con la decisión “{decision}”. Esa decisión podría servir aquí.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="132"/>
        <source>%n more solved problem(s) share its concepts.</source>
        <translation>
            <numerusform>Otro problema resuelto comparte sus conceptos (%n).</numerusform>
            <numerusform>Otros %n problemas resueltos comparten sus conceptos.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="136"/>
        <source>&quot;{technology}&quot; is used by %n entities: {users}. Consider sharing knowledge, fixes or materials between them.</source>
        <translation>
            <numerusform>“{technology}” lo usa %n entidad: {users}. Piensa en compartir conocimientos, soluciones o materiales.</numerusform>
            <numerusform>“{technology}” lo usan %n entidades: {users}. Piensa en compartir conocimientos, soluciones o materiales entre ellas.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="141"/>
        <source>The concept &quot;{concept}&quot; connects %n entities: {members}. This cluster may reveal a pattern worth exploring.</source>
        <translation>
            <numerusform>El concepto “{concept}” conecta %n entidad: {members}. Este grupo puede revelar un patrón que vale la pena explorar.</numerusform>
            <numerusform>El concepto “{concept}” conecta %n entidades: {members}. Este grupo puede revelar un patrón que vale la pena explorar.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="147"/>
        <source>The problem &quot;{issue}&quot; involves the concept &quot;{concept}&quot;, which the course &quot;{course}&quot; covers. Reviewing it may help.</source>
        <translation>El problema “{issue}” tiene que ver con el concepto “{concept}”, que trata el curso “{course}”. Repasarlo puede ayudar.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="152"/>
        <source>Other courses: {courses}.</source>
        <translation>Otros cursos: {courses}.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="155"/>
        <source>its domain</source>
        <translation>su dominio</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="157"/>
        <source>The technique &quot;{technique}&quot; (used in {homes}) shares %n concept(s) with work in &quot;{domain}&quot;, where it is not used yet: {concepts}. It may apply there.</source>
        <translation>
            <numerusform>La técnica “{technique}” (usada en {homes}) comparte %n concepto con el trabajo en “{domain}”, donde aún no se usa: {concepts}. Podría servir allí.</numerusform>
            <numerusform>La técnica “{technique}” (usada en {homes}) comparte %n conceptos con el trabajo en “{domain}”, donde aún no se usa: {concepts}. Podría servir allí.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="165"/>
        <source>its confidence is low ({confidence})</source>
        <translation>su confianza es baja ({confidence})</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="167"/>
        <source>it has not been updated since {date}</source>
        <translation>no se actualiza desde el {date}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="172"/>
        <source>&quot;{node}&quot; is linked to the active {label} &quot;{active}&quot;, but {reason}. Consider updating or archiving it.</source>
        <translation>“{node}” está enlazado con “{active}” ({label}, activo), pero {reason}. Piensa en actualizarlo o archivarlo.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="176"/>
        <source>(%n more active entities are linked to it.)</source>
        <translation>
            <numerusform>(Está enlazado con %n entidad activa más.)</numerusform>
            <numerusform>(Está enlazado con %n entidades activas más.)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/words.py" line="191"/>
        <source>%n entities have fewer than 2 real connections: {listed}. Linking them (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) makes them easier to find and reason about.</source>
        <translation>
            <numerusform>%n entidad tiene menos de 2 conexiones reales: {listed}. Enlazarla (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) la hace más fácil de encontrar y de razonar sobre ella.</numerusform>
            <numerusform>%n entidades tienen menos de 2 conexiones reales: {listed}. Enlazarlas (INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) las hace más fáciles de encontrar y de razonar sobre ellas.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="33"/>
        <source>Possible duplicates: </source>
        <translation>Posibles duplicados: </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="34"/>
        <source>Repeated facts on </source>
        <translation>Hechos repetidos en </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="181"/>
        <source>{others} may be the same as &quot;{kept}&quot;. Approving merges them into &quot;{kept}&quot;: facts and relations are kept, the other names stay as aliases, and one undo takes it back.</source>
        <translation>{others} puede ser lo mismo que &quot;{kept}&quot;. Al aprobar se fusionan en &quot;{kept}&quot;: se conservan los hechos y las relaciones, los otros nombres quedan como alias y un solo deshacer lo revierte.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="186"/>
        <source>&quot;{name}&quot; holds facts that repeat another almost word for word. Approving removes the repeats (one undo brings them back).</source>
        <translation>&quot;{name}&quot; tiene hechos que repiten otro casi palabra por palabra. Al aprobar se eliminan las repeticiones (un solo deshacer las recupera).</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="35"/>
        <source>Superseded on </source>
        <translation>Sustituido en </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="36"/>
        <source>Contradiction on </source>
        <translation>Contradicción en </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="99"/>
        <source>On &quot;{entity}&quot;, the newer fact &quot;{newer}&quot; seems to update the older &quot;{older}&quot;. Approving keeps the older fact, marked as superseded by the newer, with today as its end; search then answers with the newer one.</source>
        <translation>En «{entity}», el hecho más nuevo «{newer}» parece actualizar el anterior «{older}». Al aprobarlo se conserva el anterior, marcado como sustituido por el nuevo, con hoy como fecha de fin; la búsqueda responde entonces con el nuevo.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/words.py" line="104"/>
        <source>On &quot;{entity}&quot;, &quot;{older}&quot; and &quot;{newer}&quot; disagree, and nothing says which is newer. Neither was retired: edit the entity to keep the one that is true.</source>
        <translation>En «{entity}», «{older}» y «{newer}» no concuerdan, y nada dice cuál es más nuevo. No se retiró ninguno: edita la entidad para quedarte con el que es cierto.</translation>
    </message>
</context>
<context>
    <name>InsightsPane</name>
    <message>
        <location filename="../../desktop/insights/pane.py" line="125"/>
        <location filename="../../desktop/insights/pane.py" line="161"/>
        <source>Reflect now</source>
        <extracomment>change_log operations that change what this pane lists</extracomment>
        <translation>Reflexionar ahora</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="126"/>
        <source>Look for patterns in the memory and propose insights to review</source>
        <translation>Buscar patrones en la memoria y proponer hallazgos para revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="143"/>
        <source>No insights yet</source>
        <translation>Todavía no hay hallazgos</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="150"/>
        <source>Insights are patterns Hipocampo notices in your memory: two projects that use the same technology, an open problem like one solved elsewhere, a concept many notes share. Each waits here for you to approve or dismiss; nothing joins your memory until you approve it.</source>
        <translation>Los hallazgos son patrones que Hipocampo descubre en tu memoria: dos proyectos que usan la misma tecnología, un problema abierto parecido a otro ya resuelto, un concepto que comparten muchas notas. Cada uno espera aquí a que lo apruebes o lo descartes; nada entra en tu memoria hasta que lo apruebas.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="175"/>
        <source>Nothing left to review. Reflect now looks for new patterns.</source>
        <translation>No queda nada por revisar. Reflexionar ahora busca patrones nuevos.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="180"/>
        <location filename="../../desktop/insights/pane.py" line="363"/>
        <source>To review</source>
        <translation>Por revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="183"/>
        <source>Insights you approve or dismiss are listed here.</source>
        <translation>Aquí aparecen los hallazgos que apruebas o descartas.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="188"/>
        <location filename="../../desktop/insights/pane.py" line="365"/>
        <source>Decided</source>
        <translation>Decididas</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="206"/>
        <source>Select an insight to see why it was proposed.</source>
        <translation>Selecciona un hallazgo para ver por qué se propuso.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="216"/>
        <source>The evidence has changed since this was found. Reflect again to check it, or dismiss it.</source>
        <translation>Las pruebas han cambiado desde que se encontró. Reflexiona de nuevo para comprobarla, o descártala.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="218"/>
        <source>Built from</source>
        <translation>Basada en</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="224"/>
        <source>How they connect</source>
        <translation>Cómo se relacionan</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="249"/>
        <source>Show in graph</source>
        <translation>Mostrar en el grafo</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="251"/>
        <source>Dismiss</source>
        <translation>Descartar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="252"/>
        <source>Dismiss: never propose it again (D or Delete)</source>
        <translation>Descartar: no volver a proponerla (D o Supr)</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="254"/>
        <source>Approve</source>
        <translation>Aprobar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="256"/>
        <source>Approve: add it to the memory, linked to its evidence (A or Ctrl+Enter)</source>
        <translation>Aprobar: añadirla a la memoria, enlazada a sus pruebas (A o Ctrl+Intro)</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="297"/>
        <source>Looking for patterns…</source>
        <translation>Buscando patrones…</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="363"/>
        <source>To review ({n})</source>
        <translation>Por revisar ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="365"/>
        <source>Decided ({n})</source>
        <translation>Decididas ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="389"/>
        <source>Cannot read the insights: {reason}</source>
        <translation>No se pueden leer los hallazgos: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="393"/>
        <source>No insights to review</source>
        <translation>No hay hallazgos por revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="486"/>
        <source>confidence {percent} %</source>
        <translation>confianza {percent} %</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="488"/>
        <source>found {age}</source>
        <translation>encontrada {age}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="493"/>
        <source>you</source>
        <translation>tú</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="495"/>
        <source>{status} {age} by {who}</source>
        <translation>{status} {age} por {who}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="496"/>
        <source>{status} {age}</source>
        <translation>{status} {age}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="514"/>
        <source>and {n} more</source>
        <translation>y {n} más</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="539"/>
        <source>A stale insight cannot be approved: reflect again or dismiss it.</source>
        <translation>Un hallazgo desactualizado no se puede aprobar: reflexiona de nuevo o descártalo.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="550"/>
        <source>Approved “{title}”.</source>
        <translation>«{title}» aprobada.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="551"/>
        <source>Dismissed “{title}”.</source>
        <translation>«{title}» descartada.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="589"/>
        <source>No new insights.</source>
        <translation>No hay hallazgos nuevos.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="591"/>
        <source>1 new insight.</source>
        <translation>1 hallazgo nuevo.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="593"/>
        <source>{n} new insights.</source>
        <translation>{n} hallazgos nuevos.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="595"/>
        <source>1 no longer holds.</source>
        <translation>1 ya no es válida.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="596"/>
        <source>{n} no longer hold.</source>
        <translation>{n} ya no son válidas.</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="598"/>
        <source>Reflect: {result}</source>
        <translation>Reflexión: {result}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="603"/>
        <source>Reflect failed: {reason}</source>
        <translation>La reflexión falló: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="259"/>
        <source>Back to review</source>
        <translation>Volver a revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="260"/>
        <source>Changed your mind? Put it back with the insights to review</source>
        <translation>¿Has cambiado de idea? Devuélvelo a los hallazgos por revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="332"/>
        <source>“{title}” is back with the insights to review.</source>
        <translation>“{title}” vuelve a estar entre los hallazgos por revisar.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/insights/pane.py" line="394"/>
        <source>%Ln insights to review</source>
        <translation>
            <numerusform>%Ln hallazgo por revisar</numerusform>
            <numerusform>%Ln hallazgos por revisar</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="128"/>
        <source>Tidying only</source>
        <translation>Solo limpieza</translation>
    </message>
    <message>
        <location filename="../../desktop/insights/pane.py" line="129"/>
        <source>Only what tidying proposes: possible duplicates to merge, repeated facts</source>
        <translation>Solo lo que propone la limpieza: posibles duplicados que fusionar, hechos repetidos</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="66"/>
        <location filename="../../desktop/main_window.py" line="234"/>
        <source>Opening your memory…</source>
        <translation>Abriendo tu memoria…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="117"/>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="118"/>
        <source>&amp;New memory…</source>
        <translation>&amp;Nueva memoria…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="119"/>
        <source>Start an empty memory in a new file</source>
        <translation>Empezar una memoria vacía en un archivo nuevo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="120"/>
        <source>&amp;Open memory…</source>
        <translation>&amp;Abrir memoria…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="122"/>
        <source>&amp;Import…</source>
        <translation>&amp;Importar…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="123"/>
        <source>Import memory.jsonl, Engrama NDJSON, MCP Memory .db or notes</source>
        <translation>Importar memory.jsonl, NDJSON de Engrama, .db de MCP Memory o notas</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="124"/>
        <source>&amp;Export…</source>
        <translation>&amp;Exportar…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="125"/>
        <source>&amp;Back up…</source>
        <translation>&amp;Copia de seguridad…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="127"/>
        <source>&amp;Settings…</source>
        <translation>Con&amp;figuración…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="128"/>
        <source>&amp;Close window</source>
        <translation>Cerrar &amp;ventana</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="129"/>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="131"/>
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="132"/>
        <source>&amp;Undo last change</source>
        <translation>&amp;Deshacer el último cambio</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="135"/>
        <source>&amp;New entity</source>
        <translation>&amp;Nueva entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="136"/>
        <source>&amp;Save entity</source>
        <translation>&amp;Guardar entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="138"/>
        <source>&amp;Find…</source>
        <translation>&amp;Buscar…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="139"/>
        <source>&amp;Reflect now</source>
        <translation>&amp;Reflexionar ahora</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="140"/>
        <source>Look for patterns and propose insights to review</source>
        <translation>Buscar patrones y proponer hallazgos para revisar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="142"/>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="143"/>
        <source>Whole-memory &amp;overview</source>
        <translation>&amp;Vista general de la memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="144"/>
        <source>&amp;Fit graph to window</source>
        <translation>&amp;Ajustar el grafo a la ventana</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="147"/>
        <source>&amp;Reset layout</source>
        <translation>&amp;Restablecer la disposición</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="149"/>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="150"/>
        <source>&amp;Connect an assistant…</source>
        <translation>&amp;Conectar un asistente…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="151"/>
        <source>&amp;About Hipocampo</source>
        <translation>&amp;Acerca de Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="179"/>
        <source>Search</source>
        <translation>Búsqueda</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="180"/>
        <source>Entity</source>
        <translation>Entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="181"/>
        <location filename="../../desktop/main_window.py" line="289"/>
        <source>Insights</source>
        <translation>Hallazgos</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="182"/>
        <source>Activity</source>
        <translation>Actividad</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="252"/>
        <source>{name} — Hipocampo</source>
        <translation>{name} — Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="289"/>
        <source>Insights ({count})</source>
        <translation>Hallazgos ({count})</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="300"/>
        <source>Import into this memory</source>
        <translation>Importar a esta memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="301"/>
        <source>Memories and notes (*.jsonl *.json *.ndjson *.db *.sqlite *.md *.markdown *.txt);;All files (*)</source>
        <translation>Memorias y notas (*.jsonl *.json *.ndjson *.db *.sqlite *.md *.markdown *.txt);;Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="364"/>
        <source>Search by words only</source>
        <translation>Búsqueda solo por palabras</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="374"/>
        <source>Search by meaning ready</source>
        <translation>Búsqueda por significado lista</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="391"/>
        <source>Endpoint off</source>
        <translation>Servidor apagado</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="395"/>
        <source>Assistants: {count} connected</source>
        <translation>Asistentes conectados: {count}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="396"/>
        <source>none yet</source>
        <translation>ninguno todavía</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="397"/>
        <source>Endpoint {url}
Connected: {names}</source>
        <translation>Servidor {url}
Conectados: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="400"/>
        <source>Endpoint unavailable</source>
        <translation>Servidor no disponible</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="390"/>
        <location filename="../../desktop/main_window.py" line="403"/>
        <source>Endpoint starting…</source>
        <translation>Iniciando el servidor…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="405"/>
        <source>Endpoint stopped</source>
        <translation>Servidor detenido</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="495"/>
        <source>Unsaved changes</source>
        <translation>Cambios sin guardar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="496"/>
        <source>The entity you are editing has unsaved changes. Save them?</source>
        <translation>La entidad que estás editando tiene cambios sin guardar. ¿Guardarlos?</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="133"/>
        <source>Re&amp;do</source>
        <translation>Re&amp;hacer</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="134"/>
        <source>Make again the change the last undo took back</source>
        <translation>Vuelve a hacer el cambio que deshizo el último Deshacer</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/main_window.py" line="361"/>
        <source>%Ln entities</source>
        <translation>
            <numerusform>%Ln entidad</numerusform>
            <numerusform>%Ln entidades</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="362"/>
        <source>What read_graph returns: insights waiting for review are not counted</source>
        <translation>Lo que devuelve read_graph: los hallazgos pendientes de revisión no cuentan</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="368"/>
        <source>Indexing meaning {percent} %</source>
        <translation>Indexando el significado: {percent} %</translation>
    </message>
</context>
<context>
    <name>ObservationList</name>
    <message>
        <location filename="../../desktop/editor/observations.py" line="165"/>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="166"/>
        <source>Add an observation</source>
        <translation>Añadir una observación</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="167"/>
        <source>Edit</source>
        <translation>Editar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="168"/>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="169"/>
        <source>Delete the selected observations (Delete)</source>
        <translation>Eliminar las observaciones seleccionadas (Supr)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="343"/>
        <source>Observation {n}: {problem}</source>
        <translation>Observación {n}: {problem}</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="62"/>
        <source>{start}…
({size} in all; double-click to see all of it)</source>
        <translation>{start}…
({size} en total; doble clic para verlo entero)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="160"/>
        <source>Double-click or press F2 to edit; Enter finishes, Shift+Enter starts a new line</source>
        <translation>Doble clic o F2 para editar; Intro termina, Mayús+Intro empieza una línea nueva</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="210"/>
        <location filename="../../desktop/editor/observations.py" line="315"/>
        <source>Double-click to see all of it</source>
        <translation>Doble clic para verlo entero</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="311"/>
        <source>No longer current since {day}: “{by}” took its place. It is kept; search by meaning leaves it out, history and undo bring it back.</source>
        <translation>Ya no vigente desde el {day}: «{by}» ocupó su lugar. Se conserva; la búsqueda por significado lo deja fuera, el historial y deshacer lo recuperan.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/observations.py" line="77"/>
        <source>superseded by “{by}”</source>
        <translation>sustituido por «{by}»</translation>
    </message>
</context>
<context>
    <name>ObservationViewer</name>
    <message>
        <location filename="../../desktop/editor/viewer.py" line="37"/>
        <source>Observation</source>
        <translation>Observación</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/viewer.py" line="39"/>
        <source>{size}, {chars} characters. Long lines are shown broken; Copy copies the text as it is stored.</source>
        <translation>{size}, {chars} caracteres. Las líneas largas se muestran partidas; Copiar copia el texto tal como está guardado.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/viewer.py" line="46"/>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
</context>
<context>
    <name>PinBar</name>
    <message>
        <location filename="../../desktop/editor/pins.py" line="28"/>
        <source>Always show this entity in the brief assistants read at the start of each session</source>
        <translation>Mostrar siempre esta entidad en el resumen que los asistentes leen al empezar cada sesión</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="32"/>
        <source>Always show the selected observation in the brief (save it first)</source>
        <translation>Mostrar siempre la observación seleccionada en el resumen (guárdala antes)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="94"/>
        <source>“{name}” is pinned to the brief.</source>
        <translation>«{name}» está fijada en el resumen.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="95"/>
        <source>“{name}” is no longer pinned.</source>
        <translation>«{name}» ya no está fijada.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="97"/>
        <source>The observation is pinned to the brief.</source>
        <translation>La observación está fijada en el resumen.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="98"/>
        <source>The observation is no longer pinned.</source>
        <translation>La observación ya no está fijada.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="108"/>
        <source>✓ Pinned to brief</source>
        <translation>✓ Fijada en el resumen</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="108"/>
        <source>Pin to brief</source>
        <translation>Fijar en el resumen</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="113"/>
        <source>Unpin observation</source>
        <translation>Soltar observación</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/pins.py" line="113"/>
        <source>Pin observation</source>
        <translation>Fijar observación</translation>
    </message>
</context>
<context>
    <name>PlainWords</name>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="27"/>
        <source>name</source>
        <translation>nombre</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="27"/>
        <source>type</source>
        <translation>tipo</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="28"/>
        <source>observation</source>
        <translation>observación</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="28"/>
        <source>relation&apos;s start</source>
        <translation>origen de la relación</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="29"/>
        <source>relation&apos;s end</source>
        <translation>destino de la relación</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="29"/>
        <source>relation&apos;s type</source>
        <translation>tipo de la relación</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="36"/>
        <source>It is not UTF-8 text (byte {byte} at position {position} is not valid UTF-8). Save it as UTF-8 (“Unicode”) in your editor and import it again.</source>
        <translation>No es texto UTF-8 (el byte {byte} en la posición {position} no es UTF-8 válido). Guárdalo como UTF-8 (“Unicode”) en tu editor e impórtalo de nuevo.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="40"/>
        <source>not valid JSON: something is wrong at character {column}.</source>
        <translation>no es JSON válido: algo falla en el carácter {column}.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="44"/>
        <source>An entity has no type.</source>
        <translation>Una entidad no tiene tipo.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="46"/>
        <source>An observation is empty.</source>
        <translation>Una observación está vacía.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="47"/>
        <source>The {field} is empty.</source>
        <translation>El campo «{field}» está vacío.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="49"/>
        <source>The {field} is {n} characters long; at most {limit} are allowed.</source>
        <translation>El campo «{field}» tiene {n} caracteres; se permiten {limit} como máximo.</translation>
    </message>
    <message>
        <location filename="../../desktop/shared/plain_words.py" line="52"/>
        <source>The {field} contains an invisible NUL character.</source>
        <translation>El campo «{field}» contiene un carácter NUL invisible.</translation>
    </message>
</context>
<context>
    <name>RecallLine</name>
    <message>
        <location filename="../../desktop/editor/recall.py" line="18"/>
        <source>No assistant has recalled it yet.</source>
        <translation>Ningún asistente lo ha recordado todavía.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/recall.py" line="24"/>
        <source>Last recalled by {who} {when}, for “{query}”</source>
        <translation>Recordado por última vez por {who} {when}, para «{query}»</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/recall.py" line="26"/>
        <source>Last recalled by {who} {when}</source>
        <translation>Recordado por última vez por {who} {when}</translation>
    </message>
</context>
<context>
    <name>RelationTable</name>
    <message>
        <location filename="../../desktop/editor/relations.py" line="61"/>
        <source>→ to</source>
        <translation>→ hacia</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="62"/>
        <source>← from</source>
        <translation>← desde</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="110"/>
        <source>Dir.</source>
        <translation>Dir.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="110"/>
        <source>Relation</source>
        <translation>Relación</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="110"/>
        <source>Other entity</source>
        <translation>Otra entidad</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="111"/>
        <source>Ended</source>
        <translation>Terminada</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="127"/>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="128"/>
        <source>Relate this entity to another one</source>
        <translation>Relacionar esta entidad con otra</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="129"/>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="130"/>
        <source>Forget the selected relations</source>
        <translation>Olvidar las relaciones seleccionadas</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="131"/>
        <source>End</source>
        <translation>Terminar</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="132"/>
        <source>The selected relations stopped being true today: they are kept, marked as ended (double-click the date to change it)</source>
        <translation>Las relaciones seleccionadas dejaron de ser ciertas hoy: se conservan, marcadas como terminadas (doble clic en la fecha para cambiarla)</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="174"/>
        <source>Superseded since {day} by {by}. It is kept; search by meaning leaves it out, history and undo bring it back.</source>
        <translation>Sustituida desde el {day} por {by}. Se conserva; la búsqueda por significado la deja fuera, el historial y deshacer la recuperan.</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="217"/>
        <source>Ended {date}: kept as history, no longer current</source>
        <translation>Terminada el {date}: se conserva como historial, ya no está vigente</translation>
    </message>
    <message>
        <location filename="../../desktop/editor/relations.py" line="320"/>
        <source>Relation {n}: {problem}</source>
        <translation>Relación {n}: {problem}</translation>
    </message>
</context>
<context>
    <name>SearchPane</name>
    <message>
        <location filename="../../desktop/search/pane.py" line="76"/>
        <location filename="../../desktop/search/pane.py" line="219"/>
        <source>Search your memory…</source>
        <translation>Busca en tu memoria…</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="80"/>
        <source>&amp;Meaning</source>
        <translation>&amp;Significado</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="81"/>
        <source>Find memories about the same thing, in any language, even without the same words</source>
        <translation>Encontrar recuerdos sobre lo mismo, en cualquier idioma, aunque no usen las mismas palabras</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="82"/>
        <source>E&amp;xact text</source>
        <translation>&amp;Texto exacto</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="83"/>
        <source>Find the letters you typed anywhere in names, types and observations (ignoring case and accents)</source>
        <translation>Encontrar las letras que escribiste en nombres, tipos y observaciones (sin distinguir mayúsculas ni acentos)</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="90"/>
        <source>Show only entities of one type</source>
        <translation>Mostrar solo entidades de un tipo</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="92"/>
        <location filename="../../desktop/search/pane.py" line="305"/>
        <source>All types</source>
        <translation>Todos los tipos</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="199"/>
        <source>Searching…</source>
        <translation>Buscando…</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="220"/>
        <source>Find exact text…</source>
        <translation>Buscar texto exacto…</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="256"/>
        <source>The search could not run: {message}</source>
        <translation>No se pudo hacer la búsqueda: {message}</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="307"/>
        <source>{type} ({count})</source>
        <translation>{type} ({count})</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="310"/>
        <source>{type} (0)</source>
        <translation>{type} (0)</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="333"/>
        <source>Meaning search is off ({reason}); searching words only.</source>
        <translation>La búsqueda por significado está desactivada ({reason}); solo se buscan palabras.</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="334"/>
        <source>no embedding model</source>
        <translation>no hay modelo de embeddings</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="336"/>
        <source>Searching words only until {count} entities are indexed ({done} of {total} done).</source>
        <translation>Solo se buscan palabras hasta que se indexen {count} entidades (van {done} de {total}).</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="341"/>
        <source>The first {count} entities that contain “{query}”.</source>
        <translation>Las primeras {count} entidades que contienen «{query}».</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="342"/>
        <source>1 entity contains “{query}”.</source>
        <translation>1 entidad contiene «{query}».</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="343"/>
        <source>{count} entities contain “{query}”.</source>
        <translation>{count} entidades contienen «{query}».</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="356"/>
        <source>No entity contains “{query}”.&lt;br&gt;Try &lt;b&gt;Meaning&lt;/b&gt; to find related memories.</source>
        <translation>Ninguna entidad contiene «{query}».&lt;br&gt;Prueba &lt;b&gt;Significado&lt;/b&gt; para encontrar recuerdos relacionados.</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="363"/>
        <source>Nothing to search yet</source>
        <translation>Todavía no hay nada que buscar</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="364"/>
        <source>What your assistants remember — people, projects, decisions — can be searched here as soon as they write it, by meaning or by exact text.</source>
        <translation>Lo que recuerdan tus asistentes —personas, proyectos, decisiones— se puede buscar aquí en cuanto lo escriben, por significado o por texto exacto.</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="368"/>
        <source>Search everything your assistants remembered</source>
        <translation>Busca en todo lo que recuerdan tus asistentes</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="369"/>
        <source>&lt;b&gt;Meaning&lt;/b&gt; finds related ideas in any language, even in other words. &lt;b&gt;Exact text&lt;/b&gt; finds the letters you type, ignoring case and accents.</source>
        <translation>&lt;b&gt;Significado&lt;/b&gt; encuentra conceptos relacionados en cualquier idioma, aunque se digan con otras palabras. &lt;b&gt;Texto exacto&lt;/b&gt; encuentra las letras que escribes, sin distinguir mayúsculas ni acentos.</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="371"/>
        <source>↑ ↓ move through the results; Enter opens one.</source>
        <translation>↑ ↓ recorren los resultados; Intro abre uno.</translation>
    </message>
    <message>
        <location filename="../../desktop/search/pane.py" line="358"/>
        <source>&lt;b&gt;No good matches&lt;/b&gt; for “{query}”.&lt;br&gt;Nothing in memory is close enough in meaning or words; try other words, or all types.</source>
        <translation>&lt;b&gt;Nada se parece lo bastante&lt;/b&gt; a «{query}».&lt;br&gt;Ningún recuerdo está cerca en significado ni en palabras; prueba otras palabras o todos los tipos.</translation>
    </message>
</context>
<context>
    <name>SearchResultsModel</name>
    <message>
        <location filename="../../desktop/search/model.py" line="235"/>
        <source>{name} ({type}), {count} observations</source>
        <translation>{name} ({type}), {count} observaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/search/model.py" line="238"/>
        <source>Score {score:.2f}</source>
        <translation>Puntuación {score:.2f}</translation>
    </message>
    <message>
        <location filename="../../desktop/search/model.py" line="240"/>
        <source>Closeness in meaning {value:.0%}</source>
        <translation>Cercanía de significado {value:.0%}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="63"/>
        <source>Hipocampo settings</source>
        <extracomment>after Save: {setting name: new value} for what the user changed a connection test finished: (it worked, the sentence shown)</extracomment>
        <translation>Configuración de Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="70"/>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="81"/>
        <source>Local model: private, works offline (built in)</source>
        <translation>Modelo local: privado, funciona sin conexión (incluido)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="82"/>
        <source>OpenAI-compatible server: Ollama, LM Studio, vLLM, OpenAI…</source>
        <translation>Servidor compatible con OpenAI: Ollama, LM Studio, vLLM, OpenAI…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="83"/>
        <source>None: search by words only</source>
        <translation>Ninguno: buscar solo por palabras</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="96"/>
        <source>only if the server asks for one</source>
        <translation>solo si el servidor la pide</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="99"/>
        <source>Test connection</source>
        <translation>Probar la conexión</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="108"/>
        <source>Base URL</source>
        <translation>URL base</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="109"/>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="110"/>
        <source>API key</source>
        <translation>Clave de API</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="122"/>
        <source>Automatic</source>
        <translation>Automático</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="127"/>
        <source>Start Hipocampo when I log in (in the tray)</source>
        <translation>Iniciar Hipocampo al iniciar sesión (en la bandeja)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="129"/>
        <source>Keep serving assistants from the tray when the window is closed</source>
        <translation>Seguir atendiendo a los asistentes desde la bandeja al cerrar la ventana</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="132"/>
        <source>Like the system</source>
        <translation>Como el sistema</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="132"/>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="133"/>
        <source>Dark</source>
        <translation>Oscuro</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="162"/>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="319"/>
        <source>Memory file</source>
        <translation>Archivo de memoria</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="166"/>
        <source>Search by meaning</source>
        <translation>Búsqueda por significado</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="173"/>
        <source>Assistants and the app</source>
        <translation>Asistentes y aplicación</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="177"/>
        <source>Port for assistants</source>
        <translation>Puerto para asistentes</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="179"/>
        <source>Appearance</source>
        <translation>Apariencia</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="233"/>
        <source>Hipocampo will close the memory it has open and open this one (a file that does not exist yet starts an empty memory).</source>
        <translation>Hipocampo cerrará la memoria abierta y abrirá esta (un archivo que aún no existe empieza una memoria vacía).</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="236"/>
        <source>Everything your assistants remember is kept in this one file.</source>
        <translation>Todo lo que recuerdan tus asistentes se guarda en este archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="245"/>
        <source>After saving, the meaning of every memory is computed again in the background; search by words works meanwhile.</source>
        <translation>Al guardar, el significado de cada recuerdo se vuelve a calcular en segundo plano; mientras tanto, la búsqueda por palabras funciona.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="248"/>
        <source>Meaning lets a search for “holiday plans” find “a trip to Lisbon in May”, in any language the model knows.</source>
        <translation>El significado permite que una búsqueda de «planes de vacaciones» encuentre «un viaje a Lisboa en mayo», en cualquier idioma que conozca el modelo.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="254"/>
        <source>Ports below 1024 need administrator rights: choose 1024 or above, or Automatic.</source>
        <translation>Los puertos por debajo de 1024 necesitan permisos de administrador: elige 1024 o más, o Automático.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="257"/>
        <source>Only this computer can connect (127.0.0.1). Automatic picks a free port each time; a fixed one suits clients set up with a URL.</source>
        <translation>Solo este equipo puede conectarse (127.0.0.1). Automático elige un puerto libre cada vez; uno fijo va bien para clientes configurados con una URL.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="273"/>
        <source>Choose the file that holds the memory.</source>
        <translation>Elige el archivo que contiene la memoria.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="276"/>
        <source>{path} is a folder; choose a file inside it.</source>
        <translation>{path} es una carpeta; elige un archivo dentro de ella.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="282"/>
        <source>Hipocampo cannot read {path}: {reason}.</source>
        <translation>Hipocampo no puede leer {path}: {reason}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="284"/>
        <source>{name} is not a Hipocampo memory (it is not an SQLite database).</source>
        <translation>{name} no es una memoria de Hipocampo (no es una base de datos SQLite).</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="291"/>
        <source>Hipocampo cannot create files in {folder}.</source>
        <translation>Hipocampo no puede crear archivos en {folder}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="297"/>
        <source>Enter the server&apos;s address, like http://127.0.0.1:11434/v1.</source>
        <translation>Escribe la dirección del servidor, como http://127.0.0.1:11434/v1.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="299"/>
        <source>Enter the name of the embedding model, like nomic-embed-text.</source>
        <translation>Escribe el nombre del modelo de embeddings, como nomic-embed-text.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="307"/>
        <source>Saved in {file}, which the assistants&apos; Hipocampo reads too.</source>
        <translation>Se guarda en {file}, que también lee el Hipocampo de los asistentes.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="310"/>
        <source>Set in the environment, so it wins over this dialog the next time Hipocampo starts: {names}.</source>
        <translation>Definido en el entorno, así que tendrá prioridad sobre este diálogo la próxima vez que Hipocampo se inicie: {names}.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="319"/>
        <source>Hipocampo memory (*.db *.sqlite);;All files (*)</source>
        <translation>Memoria de Hipocampo (*.db *.sqlite);;Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="331"/>
        <source>Testing {url}…</source>
        <translation>Probando {url}…</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="341"/>
        <source>The test failed: {reason}</source>
        <translation>La prueba falló: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="343"/>
        <source>Connected: {model} answers with {dims}-dimensional vectors.</source>
        <translation>Conectado: {model} responde con vectores de {dims} dimensiones.</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="369"/>
        <source>Could not save the settings: {reason}</source>
        <translation>No se pudo guardar la configuración: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="138"/>
        <source>Keep a log of what assistants recall (on this computer only)</source>
        <translation>Guardar un registro de lo que recuerdan los asistentes (solo en este ordenador)</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="139"/>
        <source>Each search and read an assistant makes, with what it found, shown in Activity and in the editor; the oldest go past {n} reads</source>
        <translation>Cada búsqueda y lectura de un asistente, con lo que encontró, se muestra en Actividad y en el editor; las más antiguas se descartan pasadas {n} lecturas</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="143"/>
        <source>Approve updated facts without asking me</source>
        <translation>Aprobar los hechos actualizados sin preguntarme</translation>
    </message>
    <message>
        <location filename="../../desktop/dialogs/settings_dialog.py" line="145"/>
        <source>When reflect finds that a newer fact updates an older one, mark the older as superseded at once. It is never deleted; undo brings it back.</source>
        <translation>Cuando la reflexión encuentra que un hecho más nuevo actualiza uno anterior, marcar el anterior como sustituido enseguida. Nunca se borra; deshacer lo recupera.</translation>
    </message>
</context>
<context>
    <name>SnippetDelegate</name>
    <message>
        <location filename="../../desktop/search/delegate.py" line="130"/>
        <source>no observations yet</source>
        <translation>todavía sin observaciones</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../desktop/tray.py" line="40"/>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="42"/>
        <source>Connected assistants</source>
        <translation>Asistentes conectados</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="44"/>
        <location filename="../../desktop/tray.py" line="122"/>
        <source>Stop the assistant endpoint</source>
        <translation>Detener el servidor para asistentes</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="46"/>
        <source>Copy configuration for</source>
        <translation>Copiar la configuración para</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="53"/>
        <source>Open Hipocampo</source>
        <translation>Abrir Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="55"/>
        <source>Quit Hipocampo</source>
        <translation>Salir de Hipocampo</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="110"/>
        <source>Opening the memory…</source>
        <translation>Abriendo la memoria…</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="112"/>
        <source>Assistant endpoint on port {port}</source>
        <translation>Servidor para asistentes en el puerto {port}</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="114"/>
        <source>Starting the assistant endpoint…</source>
        <translation>Iniciando el servidor para asistentes…</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="118"/>
        <source>Assistant endpoint stopped</source>
        <translation>Servidor para asistentes detenido</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="123"/>
        <source>Start the assistant endpoint</source>
        <translation>Iniciar el servidor para asistentes</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="131"/>
        <source>None connected yet</source>
        <translation>Ninguno conectado todavía</translation>
    </message>
    <message>
        <location filename="../../desktop/tray.py" line="132"/>
        <source>Connected assistants ({count})</source>
        <translation>Asistentes conectados ({count})</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/tray.py" line="136"/>
        <source>%n assistant(s) connected</source>
        <translation>
            <numerusform>%n asistente conectado</numerusform>
            <numerusform>%n asistentes conectados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/tray.py" line="140"/>
        <source>%n insight(s) to review</source>
        <translation>
            <numerusform>%n hallazgo por revisar</numerusform>
            <numerusform>%n hallazgos por revisar</numerusform>
        </translation>
    </message>
</context>
</TS>
