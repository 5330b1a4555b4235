#include "commands/price_commands.h"

#include "common/format.h"
#include "session.h"
#include "ui_text.h"

#include <utility>

namespace advisor::ui {

AddPriceCommand* AddPriceCommand::create(Session& session, const PriceInput& in) {
    const auto id = session.db().addPrice(in, {"", 0, "", ""});
    return new AddPriceCommand(session, *session.db().price(id));
}

AddPriceCommand::AddPriceCommand(Session& session, Price stored)
    : QUndoCommand(QObject::tr("Add price of %1").arg(QString::fromStdString(stored.gpuName))),
      session_(session), price_(std::move(stored)) {}

void AddPriceCommand::undo() {
    session_.db().removePrice(price_.id);
    session_.notifyPricesChanged();
}

void AddPriceCommand::redo() {
    if (!std::exchange(first_, false)) { // the first redo happened in create()
        session_.db().restorePrice(price_);
    }
    session_.notifyPricesChanged();
}

EditPriceCommand* EditPriceCommand::create(Session& session, std::int64_t id, const PriceInput& after,
                                           const QString& what) {
    const auto before = session.db().price(id);
    if (!before) {
        throw InputError({"", 0, "", "id"}, "no price with id " + std::to_string(id));
    }
    session.db().updatePrice(id, after);
    return new EditPriceCommand(session, id, toInput(*before), after, what);
}

EditPriceCommand::EditPriceCommand(Session& session, std::int64_t id, PriceInput before, PriceInput after,
                                   const QString& what)
    : QUndoCommand(what), session_(session), id_(id), before_(std::move(before)), after_(std::move(after)) {}

void EditPriceCommand::undo() {
    session_.db().updatePrice(id_, before_);
    session_.notifyPricesChanged();
}

void EditPriceCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().updatePrice(id_, after_);
    }
    session_.notifyPricesChanged();
}

RemovePricesCommand::RemovePricesCommand(Session& session, std::vector<std::int64_t> ids)
    : QUndoCommand(ids.size() == 1 ? QObject::tr("Delete price") : QObject::tr("Delete %1 prices").arg(ids.size())),
      session_(session), ids_(std::move(ids)) {}

void RemovePricesCommand::undo() {
    session_.db().restorePrices(removed_);
    session_.notifyPricesChanged();
}

void RemovePricesCommand::redo() {
    removed_ = session_.db().removePrices(ids_);
    session_.notifyPricesChanged();
}

ImportPricesCommand::ImportPricesCommand(Session& session, std::vector<std::int64_t> addedIds, const QString& file)
    : QUndoCommand(QObject::tr("Import %1 from %2").arg(qs(format::count(static_cast<long long>(addedIds.size()), "price")), file)), session_(session),
      ids_(std::move(addedIds)) {}

void ImportPricesCommand::undo() {
    removed_ = session_.db().removePrices(ids_);
    session_.notifyPricesChanged();
}

void ImportPricesCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().restorePrices(removed_);
    }
    session_.notifyPricesChanged();
}

AddCustomGpuCommand* AddCustomGpuCommand::create(Session& session, const Gpu& gpu) {
    const std::string id = session.db().addCustomGpu(gpu);
    return new AddCustomGpuCommand(session, gpu, id);
}

AddCustomGpuCommand::AddCustomGpuCommand(Session& session, Gpu gpu, std::string id)
    : QUndoCommand(QObject::tr("Add GPU %1").arg(QString::fromStdString(gpu.name))), session_(session),
      gpu_(std::move(gpu)), id_(std::move(id)) {}

void AddCustomGpuCommand::undo() {
    session_.db().removeCustomGpu(id_);
    session_.notifyCatalogChanged();
    session_.notifyPricesChanged();
}

void AddCustomGpuCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().addCustomGpu(gpu_);
    }
    session_.notifyCatalogChanged();
}

} // namespace advisor::ui
